import HTTPServer

/// Request bytes and helpers shared by the parser tests.
enum ParserFixture {
    static let get = bytes("GET /healthz?full=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: test\r\n\r\n")
    static let post = bytes(
        "POST /auth/login HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n"
            + #"{"a":"bcd"}"#)
    static let chunked = bytes(
        "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: abc\r\n\r\n")

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Feeds `bytes` in pieces of `chunkSize`, collecting every event.
    static func feed(
        _ bytes: [UInt8], chunkSize: Int, limits: HTTPRequestParser.Limits = .init()
    ) throws(HTTPServerError) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPRequestParser.Event] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            parser.append(bytes[offset..<end])
            offset = end
            while let event = try parser.next() { events.append(event) }
        }
        return events
    }

    /// The error parsing `text` (fed at once) throws, or nil.
    static func error(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPServerError? {
        do {
            _ = try feed(bytes(text), chunkSize: text.utf8.count, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func heads(_ events: [HTTPRequestParser.Event]) -> [HTTPRequestHead] {
        events.compactMap { if case .head(let head) = $0 { head } else { nil } }
    }

    static func bodies(_ events: [HTTPRequestParser.Event]) -> [[UInt8]] {
        events.compactMap { if case .complete(let body, _) = $0 { body } else { nil } }
    }
}
