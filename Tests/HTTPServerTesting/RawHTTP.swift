import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Raw-socket HTTP for tests that send what URLSession will not (made-up methods, partial requests).
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port` with 5 s send and receive timeouts; returns the descriptor.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw Failure(description: "connect: errno \(error)")
        }
        return fd
    }

    /// Sends all of `text`.
    static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += n
        }
    }

    /// Reads until the server closes (or 5 s pass) and returns everything read.
    static func readToEnd(_ fd: Int32) -> String {
        String(decoding: readBytesToEnd(fd), as: UTF8.self)
    }

    /// Reads until the server closes (or 5 s pass) and returns the bytes read.
    static func readBytesToEnd(_ fd: Int32) -> [UInt8] {
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
    static func status(port: Int, _ request: String) throws -> Int {
        let fd = try connect(port: port)
        defer { close(fd) }
        try send(fd, request)
        let answer = readToEnd(fd)
        let parts = answer.prefix(12).split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
    }

    /// Runs blocking socket work on a Dispatch thread, off the cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}
