import Foundation
import HTTPServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension Tag {
    @Tag static var integration: Self
}

/// A response as the test client read it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: String
}

enum TestClientError: Error { case connect(Int32), send(Int32), malformed(String), timedOut }

/// A blocking raw-socket HTTP/1.1 client for end-to-end tests, on ``RawHTTP``'s connection; reads time out after
/// 5 s.
/// Used by one test, from one thread at a time (handed to `offPool` and awaited), hence `@unchecked Sendable`.
final class TestClient: @unchecked Sendable {
    let fd: Int32
    var buffer: [UInt8] = []

    init(port: Int) throws {
        do {
            fd = try RawHTTP.connect(port: port)
        } catch {
            throw TestClientError.connect(error.code)
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        guard RawHTTP.writeAll(fd, bytes) else { throw TestClientError.send(errno) }
    }

    /// Reads more bytes; false on EOF or reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw TestClientError.timedOut }
        return false
    }

    /// Reads one response (its body framed by Content-Length); nil if the server closed first.
    func readResponse() throws -> TestResponse? {
        while true {
            if let response = try parseBuffered() { return response }
            guard try fill() else { return nil }
        }
    }

    /// Waits for the server to close the connection, discarding data; false on timeout.
    func waitForClose() -> Bool {
        do {
            while try fill() { buffer.removeAll() }
            return true
        } catch {
            return false
        }
    }

    private func parseBuffered() throws -> TestResponse? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestClientError.malformed(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError.malformed(line) }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = status < 200 || status == 204 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        guard buffer.count >= end + 4 + length else { return nil }
        let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buffer.removeFirst(end + 4 + length)
        return TestResponse(status: status, headers: headers, body: body)
    }
}
