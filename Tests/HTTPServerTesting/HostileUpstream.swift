import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test-only HTTP/1.1 responder on 127.0.0.1 (port chosen by the kernel) that plays a scripted reply per
/// request and records what it received. One request per connection (`Connection: close`).
///
/// Always call ``shutdown()``; it stops the accept loop, cuts scripted delays short and closes the listener.
final class FakeUpstreamServer: Sendable {
    /// What to do with the n-th request (0-based).
    enum Reply: Sendable {
        /// Answer with `status`, `body` (`Content-Type: application/json`) and extra `headers` after `delay`.
        case respond(status: Int, body: String, delay: Duration = .zero, headers: [String: String] = [:])
        /// Close the connection without writing anything.
        case closeWithoutAnswer
        /// Write `bytes` as they are (not an HTTP answer), then close.
        case raw(String)
        /// Answer with `status` and a body that never ends: `{"token":"aaaa…` in chunks of `chunkBytes`, until the
        /// client goes away or the server stops. `contentLength` is declared when given (chunked otherwise).
        case endlessBody(status: Int, contentLength: Int?, chunkBytes: Int = 16_384)
    }

    /// A request as received.
    struct Request: Sendable {
        var method: String
        var target: String
        /// Header names lowercased.
        var headers: [String: String]
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct State {
        var requests: [Request] = []
        var connections = 0
        var stopped = false
        var streamedBytes = 0
        var streamsEnded = 0
        var hangUps = 0
    }

    /// The port the listener is bound to.
    let port: UInt16
    private let listener: Int32
    private let script: @Sendable (Int) -> Reply
    private let state = Mutex(State())
    private let acceptLoopDone = DispatchSemaphore(value: 0)

    /// Binds 127.0.0.1:0 and starts accepting on a background thread.
    init(script: @escaping @Sendable (Int) -> Reply) throws {
        let (fd, port) = try Self.bindLoopback()
        self.listener = fd
        self.port = port
        self.script = script
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "FakeUpstreamServer.accept"
        thread.start()
    }

    /// Answers every request the same way.
    convenience init(always reply: Reply) throws {
        try self.init(script: { _ in reply })
    }

    /// `http://127.0.0.1:<port>/identity/auth/token`.
    var url: URL {
        get throws {
            guard let url = URL(string: "http://127.0.0.1:\(port)/identity/auth/token") else {
                throw Failure(description: "bad URL")
            }
            return url
        }
    }

    /// Requests received so far, in arrival order.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Body bytes written so far by ``Reply/endlessBody(status:contentLength:chunkBytes:)`` replies.
    var streamedBytes: Int { state.withLock { $0.streamedBytes } }

    /// Endless bodies that stopped because the client went away (or the server stopped).
    var streamsEnded: Int { state.withLock { $0.streamsEnded } }

    /// Scripted delays cut short because the client closed the connection meanwhile.
    var hangUps: Int { state.withLock { $0.hangUps } }

    /// Number of complete requests received.
    var callCount: Int { state.withLock { $0.requests.count } }

    /// Stops accepting, cuts delays short and closes the listener. Idempotent.
    func shutdown() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        acceptLoopDone.wait()
        close(listener)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { acceptLoopDone.signal() }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let index = state.withLock { state in
                defer { state.connections += 1 }
                return state.connections
            }
            DispatchQueue.global().async { [self] in serve(connection, index: index) }
        }
    }

    private func serve(_ connection: Int32, index: Int) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A client that stops reading without closing ends an endless body after a while, not never.
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        state.withLock { $0.requests.append(request) }
        switch script(index) {
        case .closeWithoutAnswer:
            return
        case .raw(let text):
            writeAll(connection, Array(text.utf8))
            closeWriteSide(connection)
        case .respond(let status, let body, let delay, let headers):
            if delay > .zero, !waitUnlessStopped(delay, watching: connection) { return }
            let bodyBytes = Array(body.utf8)
            let head =
                "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\n"
                + headers.map { "\($0.key): \($0.value)\r\n" }.joined()
                + "Content-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n"
            writeAll(connection, Array(head.utf8) + bodyBytes)
            closeWriteSide(connection)
        case .endlessBody(let status, let contentLength, let chunkBytes):
            streamEndlessly(connection, status: status, contentLength: contentLength, chunkBytes: chunkBytes)
        }
    }

    private func streamEndlessly(_ connection: Int32, status: Int, contentLength: Int?, chunkBytes: Int) {
        defer { state.withLock { $0.streamsEnded += 1 } }
        let framing = contentLength.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n"
        let head = "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\n\(framing)\r\n"
        guard writeAll(connection, Array(head.utf8)) else { return }
        var payload = Array(#"{"token":""#.utf8)
        payload += [UInt8](repeating: UInt8(ascii: "a"), count: max(chunkBytes - payload.count, 1))
        var first = true
        while !isStopped {
            let piece = first ? payload : [UInt8](repeating: UInt8(ascii: "a"), count: chunkBytes)
            first = false
            let framed =
                contentLength == nil
                ? Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8) : piece
            guard writeAll(connection, framed) else { return }
            state.withLock { $0.streamedBytes += piece.count }
        }
    }

    /// Sleeps in short slices; returns false when the server stopped meanwhile or the client hung up (counted in
    /// ``hangUps``).
    private func waitUnlessStopped(_ delay: Duration, watching connection: Int32) -> Bool {
        let deadline = ContinuousClock.now + delay
        while ContinuousClock.now < deadline {
            if isStopped { return false }
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 10) > 0 {
                var byte: UInt8 = 0
                // Readable with nothing to read: the client closed (or reset) its side.
                if recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0 {
                    state.withLock { $0.hangUps += 1 }
                    return false
                }
                usleep(10_000)
            }
        }
        return !isStopped
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expectedTotal: Int?
        while true {
            if headEnd == nil, let end = Self.find(separator, in: buffer) {
                headEnd = end
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let length = Self.headers(of: head)["content-length"].flatMap { Int($0) } ?? 0
                expectedTotal = end + separator.count + length
            }
            if let expectedTotal, buffer.count >= expectedTotal { break }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
        guard let headEnd, let expectedTotal else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ").map(String.init)
        return Request(
            method: parts.first ?? "",
            target: parts.count > 1 ? parts[1] : "",
            headers: Self.headers(of: head),
            body: Array(buffer[(headEnd + separator.count)..<expectedTotal])
        )
    }

    private static func headers(of head: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// Writes every byte; false when the peer went away (or a send timed out).
    @discardableResult
    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func bindLoopback() throws -> (Int32, UInt16) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "bind/listen: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw Failure(description: "getsockname: errno \(errno)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// A port on 127.0.0.1 that nothing listens on (bound, then closed), for "connection refused".
    static func deadPort() throws -> UInt16 {
        let (fd, port) = try bindLoopback()
        close(fd)
        return port
    }
}

/// Half-closes a connection after the answer (a file-scope function, so `shutdown` is the C one).
private func closeWriteSide(_ connection: Int32) {
    _ = shutdown(connection, Int32(SHUT_WR))
}
