import Foundation
import HTTPServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A raw loopback server for one request that answers 200 with a body of ``totalBytes`` (chunked, or with a
/// declared `Content-Length`), written until the client goes away; ``ending()`` waits for that event and says how
/// many body bytes were written and whether the write failed because the peer closed (EPIPE, ECONNRESET).
final class BodySink: Sendable {
    /// The body the server would write in full: 256 MiB, far more than loopback socket buffers hold.
    static let totalBytes = 256 << 20

    struct Ending: Sendable {
        var bytesWritten: Int
        var clientWentAway: Bool
    }

    let port: UInt16
    private let finished: AsyncStream<Ending>

    init(contentLength: Int?) throws {
        let (listener, port) = try RawHTTP.bindLoopback()
        self.port = port
        let (stream, continuation) = AsyncStream.makeStream(of: Ending.self)
        finished = stream
        let thread = Thread {
            defer { close(listener) }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return continuation.finish() }
            defer { close(connection) }
            // A client that stopped reading without closing fails the writes after this, not never.
            RawHTTP.setTimeouts(connection, seconds: 20)
            var request = [UInt8](repeating: 0, count: 4096)
            _ = request.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            let framing = contentLength.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n"
            _ = RawHTTP.writeAll(connection, Array("HTTP/1.1 200 OK\r\n\(framing)\r\n".utf8))
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 16_384)
            let framed = contentLength == nil ? Array("4000\r\n".utf8) + chunk + Array("\r\n".utf8) : chunk
            var written = 0
            var clientWentAway = false
            while written < Self.totalBytes {
                guard Self.writeAll(connection, framed) else {
                    clientWentAway = errno == EPIPE || errno == ECONNRESET
                    break
                }
                written += chunk.count
            }
            continuation.yield(Ending(bytesWritten: written, clientWentAway: clientWentAway))
            continuation.finish()
        }
        thread.start()
    }

    /// Waits until the server stopped writing.
    func ending() async -> Ending {
        var iterator = finished.makeAsyncIterator()
        return await iterator.next() ?? Ending(bytesWritten: Self.totalBytes, clientWentAway: false)
    }

    /// Writes every byte; false with `errno` set when a send fails.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
