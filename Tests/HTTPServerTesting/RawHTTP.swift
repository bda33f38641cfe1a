import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Raw-socket HTTP for tests that send or answer what URLSession and HTTPServer will not (made-up methods,
/// partial requests, answers that are not HTTP): the one place tests open, bind and read TCP sockets.
public enum RawHTTP {
    /// A socket call failed; `description` names the call and `errno`.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// The `errno` of the failed call.
        public var code: Int32
    }

    /// Connects to 127.0.0.1:`port` with 5 s send and receive timeouts; returns the descriptor.
    public static func connect(port: Int) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)", code: errno) }
        setTimeouts(fd, seconds: 5)
        var address = loopback(port: UInt16(port))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw Failure(description: "connect: errno \(error)", code: error)
        }
        return fd
    }

    /// Sets the send and receive timeouts of `fd`.
    public static func setTimeouts(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `text`.
    public static func send(_ fd: Int32, _ text: String) throws(Failure) {
        guard writeAll(fd, Array(text.utf8)) else { throw Failure(description: "send: errno \(errno)", code: errno) }
    }

    /// Writes every byte; false when the peer went away (or a send timed out).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Reads until the server closes (or the receive timeout passes) and returns everything read.
    public static func readToEnd(_ fd: Int32) -> String {
        String(decoding: readBytesToEnd(fd), as: UTF8.self)
    }

    /// Reads until the server closes (or the receive timeout passes) and returns the bytes read.
    public static func readBytesToEnd(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            data.append(contentsOf: chunk[0..<n])
        }
        return data
    }

    /// Sends `request` on a new connection, reads until the server closes, and returns the status code (0 when
    /// there was no status line).
    public static func status(port: Int, _ request: String) throws(Failure) -> Int {
        let fd = try connect(port: port)
        defer { close(fd) }
        try send(fd, request)
        let answer = readToEnd(fd)
        let parts = answer.prefix(12).split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
    }

    /// Runs blocking socket work on a Dispatch thread, off the cooperative pool.
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Binds and listens on 127.0.0.1 with a port the kernel picks; returns the descriptor and the port.
    public static func bindLoopback() throws(Failure) -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)", code: errno) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "bind/listen: errno \(code)", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "getsockname: errno \(code)", code: code)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// A port on 127.0.0.1 that nothing listens on (bound, then closed), for "connection refused".
    public static func deadPort() throws(Failure) -> UInt16 {
        let (fd, port) = try bindLoopback()
        close(fd)
        return port
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
