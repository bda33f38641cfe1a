import Dispatch
public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A raw-socket upstream on 127.0.0.1 for the answers `HTTPServer` cannot give on purpose: closing without an
/// answer, bytes that are not HTTP, a body that never ends (HTTPServer writes whole, length-framed bodies
/// only), and a stall that notices when the client hangs up (HTTPServer keeps a connection whose handler is
/// still running and tells the handler nothing). Well-formed answers come from ``FakeUpstream``.
///
/// One request per connection. Always call ``shutdown()``: it stops the accept loop, ends stalls and endless
/// bodies, and closes the listener.
public final class HostileUpstream: Sendable {
    /// What to do with the n-th request (0-based), once it has been read.
    public enum Behaviour: Sendable {
        /// Close the connection without writing anything.
        case closeWithoutAnswer
        /// Write `text` as it is (an answer that is not HTTP, or a hand-made one), then close.
        case raw(String)
        /// Answer `status` with a body that never ends: `{"token":"aaaa…` in chunks of `chunkBytes`, until the
        /// client goes away or the server stops. `contentLength` is declared when given (chunked otherwise).
        case endlessBody(status: Int, contentLength: Int?, chunkBytes: Int = 16_384)
        /// Answer nothing for `duration` (counting a client that hangs up meanwhile in ``hangUps``), then close.
        case stall(Duration)

        /// A complete, well-formed JSON answer written by hand (for scripts that mix it with hostile ones).
        public static func answer(status: Int, body: String) -> Behaviour {
            .raw(
                "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)"
                    + "\r\nConnection: close\r\n\r\n\(body)")
        }
    }

    private struct State {
        var requests = 0
        var stopped = false
        var streamedBytes = 0
        var streamsEnded = 0
        var hangUps = 0
    }

    /// The port the listener is bound to.
    public let port: UInt16
    private let listener: Int32
    private let script: @Sendable (Int) -> Behaviour
    private let state = Mutex(State())
    private let acceptLoopDone = DispatchSemaphore(value: 0)

    /// Binds 127.0.0.1:0 and starts accepting on a background thread.
    public init(script: @escaping @Sendable (Int) -> Behaviour) throws {
        (listener, port) = try RawHTTP.bindLoopback()
        self.script = script
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "HostileUpstream.accept"
        thread.start()
    }

    /// Behaves the same way for every request.
    public convenience init(always behaviour: Behaviour) throws {
        try self.init(script: { _ in behaviour })
    }

    /// `http://127.0.0.1:<port>/identity/auth/token`.
    public var url: URL { FakeUpstream.url(port: Int(port)) }

    /// Complete requests read so far.
    public var callCount: Int { state.withLock { $0.requests } }

    /// Body bytes written so far by ``Behaviour/endlessBody(status:contentLength:chunkBytes:)``.
    public var streamedBytes: Int { state.withLock { $0.streamedBytes } }

    /// Endless bodies that stopped because the client went away (or the server stopped).
    public var streamsEnded: Int { state.withLock { $0.streamsEnded } }

    /// Stalls cut short because the client closed the connection meanwhile.
    public var hangUps: Int { state.withLock { $0.hangUps } }

    /// Stops accepting, ends stalls and endless bodies, and closes the listener. Idempotent.
    public func shutdown() {
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
        var index = 0
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let behaviour = script(index)
            index += 1
            DispatchQueue.global().async { [self] in serve(connection, behaviour) }
        }
    }

    private func serve(_ connection: Int32, _ behaviour: Behaviour) {
        defer { close(connection) }
        // A client that stops reading without closing ends an endless body after a while, not never.
        RawHTTP.setTimeouts(connection, seconds: 5)
        guard Self.readRequest(connection) else { return }
        state.withLock { $0.requests += 1 }
        switch behaviour {
        case .closeWithoutAnswer:
            return
        case .raw(let text):
            RawHTTP.writeAll(connection, Array(text.utf8))
            _ = Glibc.shutdown(connection, Int32(SHUT_WR))
        case .endlessBody(let status, let contentLength, let chunkBytes):
            streamEndlessly(connection, status: status, contentLength: contentLength, chunkBytes: chunkBytes)
        case .stall(let duration):
            stall(duration, watching: connection)
        }
    }

    private func streamEndlessly(_ connection: Int32, status: Int, contentLength: Int?, chunkBytes: Int) {
        defer { state.withLock { $0.streamsEnded += 1 } }
        let framing = contentLength.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n"
        let head = "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\n\(framing)\r\n"
        guard RawHTTP.writeAll(connection, Array(head.utf8)) else { return }
        var payload = Array(#"{"token":""#.utf8)
        payload += [UInt8](repeating: UInt8(ascii: "a"), count: max(chunkBytes - payload.count, 1))
        var first = true
        while !isStopped {
            let piece = first ? payload : [UInt8](repeating: UInt8(ascii: "a"), count: chunkBytes)
            first = false
            let framed =
                contentLength == nil
                ? Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8) : piece
            guard RawHTTP.writeAll(connection, framed) else { return }
            state.withLock { $0.streamedBytes += piece.count }
        }
    }

    /// Sleeps in short slices until `duration` passes, the server stops, or the client hangs up (counted).
    private func stall(_ duration: Duration, watching connection: Int32) {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline, !isStopped {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 10) > 0 else { continue }
            var byte: UInt8 = 0
            // Readable with nothing to read: the client closed (or reset) its side.
            if recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0 {
                state.withLock { $0.hangUps += 1 }
                return
            }
            usleep(10_000)
        }
    }

    /// Reads one request head and its `Content-Length` body; false when the client went away first.
    private static func readRequest(_ connection: Int32) -> Bool {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        var expectedTotal: Int?
        while expectedTotal.map({ buffer.count < $0 }) ?? true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            if expectedTotal == nil,
                let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) })
            {
                let head = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                expectedTotal = end + separator.count + (length ?? 0)
            }
        }
        return true
    }
}
