import CHTTPServerLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Thin POSIX wrappers: each reads `errno` right after the call and retries `EINTR` (except `close`).
enum Syscall {
    /// A read or write outcome.
    enum IOResult {
        case bytes(Int)
        case wouldBlock
        case endOfFile
        case failed(Int32)
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = unsafe recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .endOfFile }
            let error = errno
            if error == EINTR { continue }
            return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed(error)
        }
    }

    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
        while true {
            // MSG_NOSIGNAL: a peer that went away yields EPIPE instead of SIGPIPE.
            let n = unsafe Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .bytes(n) }
            let error = errno
            if error == EINTR { continue }
            return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed(error)
        }
    }

    /// Shuts a socket down for reading and writing (a listener: refuses connects, fails accept with EINVAL);
    /// 0, or the errno.
    static func shutdownSocket(_ fd: Int32) -> Int32 {
        shutdown(fd, Int32(SHUT_RDWR)) == 0 ? 0 : errno
    }

    /// Closes once; `close` is never retried (on Linux the descriptor is gone even on EINTR).
    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        unsafe clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    static func epollControl(_ epoll: Int32, _ operation: Int32, _ fd: Int32, events: UInt32) -> Int32 {
        var event = unsafe epoll_event()
        unsafe event.events = events
        unsafe event.data.fd = fd
        let result = unsafe epoll_ctl(epoll, operation, fd, &event)
        return result == 0 ? 0 : errno
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = unsafe setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Raises the soft open-file limit to the hard limit; returns the new soft limit.
    @discardableResult
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard unsafe getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if unsafe setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(clamping: raised.rlim_cur) }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// CPUs this process may run on (honours `taskset`).
    static func availableProcessorCount() -> Int {
        var mask = [UInt8](repeating: 0, count: 1024)
        let written = unsafe mask.withUnsafeMutableBytes {
            unsafe chttp_sched_getaffinity(UInt($0.count), $0.baseAddress)
        }
        guard written > 0 else { return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
        return max(1, mask.prefix(written).reduce(0) { $0 + $1.nonzeroBitCount })
    }

    /// `"ip:port"` for an IPv4 or IPv6 socket address.
    static func describe(_ storage: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return unsafe withUnsafePointer(to: &storage) {
                unsafe $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = unsafe address.pointee.sin_addr
                    unsafe inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                    let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    return unsafe host + ":" + String(UInt16(bigEndian: address.pointee.sin_port))
                }
            }
        case AF_INET6:
            return unsafe withUnsafePointer(to: &storage) {
                unsafe $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = unsafe address.pointee.sin6_addr
                    unsafe inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
                    let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    return unsafe "[" + host + "]:" + String(UInt16(bigEndian: address.pointee.sin6_port))
                }
            }
        default:
            return ""
        }
    }
}
