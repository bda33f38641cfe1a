import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sends one request on a new TCP connection to 127.0.0.1 (so a new source port each time, which URLSession's
/// pooled connections would hide) with `Connection: close`, and reads the answer to EOF. Blocking I/O runs on
/// a Dispatch thread, never on the cooperative pool.
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
        let bytes = Array((head + "\r\n").utf8) + body
        let raw = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try exchange(port: port, bytes) }) }
        }
        return try parse(raw)
    }

    private static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: errno \(errno)") }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv: errno \(errno)") }
            answer += chunk[0..<count]
        }
        return answer
    }

    private static func parse(_ raw: [UInt8]) throws -> TestResponse {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure(description: "no response head in \(raw.count) bytes")
        }
        var lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line")
        }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return TestResponse(status: status, headers: fields, body: Data(raw[(end + 4)...]))
    }
}
