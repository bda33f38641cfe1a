import Foundation
import HTTPServerTesting
import TokenServiceTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Sends one request on a new TCP connection to 127.0.0.1 (so a new source port each time, which URLSession's
/// pooled connections would hide) with `Connection: close`, and reads the answer to EOF (``RawHTTP``: blocking
/// I/O on a Dispatch thread, never on the cooperative pool).
enum FreshConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The answer to `method path` with `headers` and an optional JSON body; header names lowercased.
    static func request(
        port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], json: String? = nil
    ) async throws -> TestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let text = head + "\r\n" + (json ?? "")
        let raw = try await RawHTTP.offPool { () throws -> [UInt8] in
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            try RawHTTP.send(fd, text)
            return RawHTTP.readBytesToEnd(fd)
        }
        return try TestResponse(raw: raw)
    }
}
