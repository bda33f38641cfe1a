import CHTTPServerLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Opens the non-blocking listening socket.
enum Listener {
    static func open(host: String, port: Int) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        var storage = sockaddr_storage()
        var length: socklen_t
        let family: Int32
        var v4 = in_addr()
        var v6 = in6_addr()
        guard (0...65535).contains(port) else { throw .socket(operation: "bind", errno: EINVAL) }
        if unsafe inet_pton(AF_INET, host, &v4) == 1 {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            unsafe withUnsafeMutableBytes(of: &storage) { raw in
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = UInt16(port).bigEndian
                address.sin_addr = v4
                unsafe withUnsafeBytes(of: &address) { unsafe raw.copyMemory(from: $0) }
            }
        } else if unsafe inet_pton(AF_INET6, host, &v6) == 1 {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            unsafe withUnsafeMutableBytes(of: &storage) { raw in
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = UInt16(port).bigEndian
                address.sin6_addr = v6
                unsafe withUnsafeBytes(of: &address) { unsafe raw.copyMemory(from: $0) }
            }
        } else {
            throw .socket(operation: "inet_pton", errno: EINVAL)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(operation: "socket", errno: errno) }
        Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        let bound = unsafe withUnsafePointer(to: &storage) {
            unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { unsafe bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = errno
            Syscall.closeDescriptor(fd)
            throw .socket(operation: "bind", errno: error)
        }
        guard listen(fd, 4096) == 0 else {
            let error = errno
            Syscall.closeDescriptor(fd)
            throw .socket(operation: "listen", errno: error)
        }
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = unsafe withUnsafeMutablePointer(to: &storage) {
            unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { unsafe getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = errno
            Syscall.closeDescriptor(fd)
            throw .socket(operation: "getsockname", errno: error)
        }
        let boundPort = unsafe withUnsafeBytes(of: &storage) { raw in
            unsafe UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
        return (fd, Int(boundPort))
    }
}
