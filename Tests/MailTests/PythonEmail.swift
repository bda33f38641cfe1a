import Foundation

/// A message as Python's `email` package reads it (`message_from_bytes`, `policy.default`): an independent
/// parser of what `MailMessage.encoded()` wrote. Text parts come back with `\n` line breaks (MIME's CRLF is the
/// canonical line break, RFC 2046 §4.1.1).
struct PythonEmail: Decodable {
    var subject: String?
    var from: String?
    var to: String?
    var fromAddress: String?
    var fromName: String?
    var toAddress: String?
    var date: Double?
    var messageID: String?
    var contentType: String
    var text: String?
    var html: String?
    var defects: [String]
    var longestLine: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let script = #"""
        import email, email.policy, json, sys
        raw = sys.stdin.buffer.read()
        message = email.message_from_bytes(raw, policy=email.policy.default)
        def body(subtype):
            part = message.get_body(preferencelist=(subtype,))
            if part is None or part.get_content_type() != "text/" + subtype:
                return None
            # MIME text has CRLF line breaks (RFC 2046 §4.1.1); the rendered text has \n.
            return part.get_content().replace("\r\n", "\n")
        defects = [type(d).__name__ for d in message.defects]
        for part in message.walk():
            defects += [type(d).__name__ for d in part.defects]
        for name in ("subject", "from", "to", "date", "message-id"):
            header = message[name]
            if header is not None:
                defects += [type(d).__name__ for d in header.defects]
        date = message["date"]
        print(json.dumps({
            "subject": str(message["subject"]) if message["subject"] is not None else None,
            "from": str(message["from"]), "to": str(message["to"]),
            "fromAddress": message["from"].addresses[0].addr_spec,
            "fromName": message["from"].addresses[0].display_name,
            "toAddress": message["to"].addresses[0].addr_spec,
            "date": date.datetime.timestamp() if date is not None else None,
            "messageID": str(message["message-id"]),
            "contentType": message.get_content_type(),
            "text": body("plain"), "html": body("html"),
            "defects": defects,
            "longestLine": max(len(line) for line in raw.split(b"\r\n")),
        }))
        """#

    /// Parses `bytes` with python3.
    static func parse(_ bytes: [UInt8]) throws -> PythonEmail {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 failed: \(errorText)")
        }
        return try JSONDecoder().decode(PythonEmail.self, from: data)
    }
}
