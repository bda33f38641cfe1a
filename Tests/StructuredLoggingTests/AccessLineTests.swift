import Logging
import Testing

@testable import StructuredLogging

/// A client address for the tests: its text as given (the real one is `HTTPServer.IPAddress`).
private struct TextAddress: LogTextWritable {
    let text: String
    func appendLogText(to bytes: inout [UInt8]) { bytes.append(contentsOf: text.utf8) }
}

@Suite struct AccessLineTests {
    /// The line without its `ts` field, which differs between two calls.
    private func withoutTimestamp(_ line: Substring) -> String {
        if line.hasPrefix(#"{"ts":""#), let end = line.firstIndex(of: ",") { return String(line[end...]) }
        if line.hasPrefix("ts="), let end = line.firstIndex(of: " ") { return String(line[end...]) }
        return String(line)
    }

    /// Handler metadata that sorts before, between and after the server's keys, collides with them, or needs
    /// escaping.
    static let metadataCases: [Logger.Metadata] = [
        [:],
        ["user.id": "u1"],
        ["a": "first", "client.address": "spoofed", "http.x": "between", "zzz": "last"],
        ["http.status": "999", "request.id": "spoofed", "http.method": "POST", "b c": "sp ace", "q": "\"x\"\n"],
        ["list": ["x", "y"], "n": .stringConvertible(42), "empty": "", "http.path2": "/after-path"],
    ]

    @Test(
        "the access line is byte for byte the line Logger writes for the same fields (JSON and logfmt, buffered or not)",
        arguments: [StructuredLogHandler.Format.json, .logfmt], [false, true])
    func sameLineAsLogger(format: StructuredLogHandler.Format, buffered: Bool) throws {
        for metadata in Self.metadataCases {
            for address in [nil, "10.0.0.9", "2001:db8::1"] as [String?] {
                for path in ["/healthz", "/a \"b\"\n=", "-", ""] {
                    let pipe = try Pipe()
                    let output = LogOutput(fileDescriptor: pipe.writeEnd, buffered: buffered)
                    let handler = StructuredLogHandler(
                        label: "tokenvend.http", format: format, level: .info, output: output)
                    var fields: Logger.Metadata = [
                        "request.id": "r-1", "http.method": "GET", "http.path": .string(path),
                        "http.status": "200", "http.duration_ms": "1.5",
                    ]
                    if let address { fields["client.address"] = .string(address) }
                    fields.merge(metadata) { current, _ in current }
                    Logger(label: "tokenvend.http") { _ in handler }.info("request", metadata: fields)
                    let line = AccessLine(
                        method: "GET", path: path, status: 200, requestID: "r-1", durationMicroseconds: 1500)
                    #expect(handler.logAccess(line, clientAddress: address.map(TextAddress.init), metadata: metadata))
                    output.flush()
                    let lines = pipe.drain().split(separator: "\n")
                    try #require(lines.count == 2)
                    #expect(withoutTimestamp(lines[0]) == withoutTimestamp(lines[1]), "\(metadata) \(path)")
                    #expect(lines[1].hasPrefix(format == .json ? #"{"ts":""# : "ts="))
                }
            }
        }
    }

    @Test("buffered access lines wait for flush and come out whole, in order, after earlier lines")
    func bufferedLinesStayInOrder() throws {
        let pipe = try Pipe()
        let output = LogOutput(fileDescriptor: pipe.writeEnd, buffered: true)
        let handler = StructuredLogHandler(label: "t", format: .logfmt, level: .info, output: output)
        Logger(label: "t") { _ in handler }.info("before")
        for index in 0..<3 {
            let line = AccessLine(
                method: "GET", path: "/\(index)", status: 204, requestID: "r\(index)", durationMicroseconds: 7)
            #expect(handler.logAccess(line, clientAddress: TextAddress?.none, metadata: [:]))
        }
        #expect(pipe.drain() == "")
        output.flush()
        let lines = pipe.drain().split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.first?.contains("msg=before") == true)
        #expect(
            lines.dropFirst().map { withoutTimestamp($0) }
                == (0..<3).map { index in
                    " level=info label=t msg=request http.duration_ms=0.007 http.method=GET http.path=/\(index)"
                        + " http.status=204 request.id=r\(index)"
                })
    }

    @Test("a handler with metadata of its own declines the access line, so the caller's general path adds it")
    func declinesWithHandlerMetadata() throws {
        let pipe = try Pipe()
        var handler = StructuredLogHandler(
            label: "t", format: .json, level: .info, output: LogOutput(fileDescriptor: pipe.writeEnd))
        handler[metadataKey: "service"] = "tokenvend"
        let line = AccessLine(method: "GET", path: "/", status: 200, requestID: "r", durationMicroseconds: 1)
        #expect(!handler.logAccess(line, clientAddress: TextAddress?.none, metadata: [:]))
        #expect(pipe.drain() == "")
    }
}
