import CHTTPServerLinux
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension EventLoop {
    func acceptConnections() {
        for _ in 0..<64 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = unsafe withUnsafeMutablePointer(to: &address) {
                unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    unsafe chttp_accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                let error = errno
                switch error {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EAGAIN, EWOULDBLOCK: return
                case EINVAL:
                    // The listener was shut down by `HTTPServer.shutdown`; the drain posted after it stops
                    // polling it. Stop now so the hang-up does not spin the loop until then.
                    stopListening()
                    return
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop polling the listener for a while instead of spinning on it.
                    shared.logger.warning("accept paused", metadata: ["errno": "\(error)"])
                    pauseAccepting(for: 100_000_000)
                    return
                default:
                    shared.logger.warning("accept failed", metadata: ["errno": "\(error)"])
                    return
                }
            }
            if connectionCount >= connectionLimit && !displaceLongestWaiting() {
                // Every connection has a handler running or output pending: refuse the newcomer rather than hurt
                // work in progress.
                Syscall.closeDescriptor(fd)
                continue
            }
            Syscall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let connection = Connection(
                fd: fd, loop: self, remoteAddress: Syscall.describe(&address), acceptedAt: now)
            let error = Syscall.epollControl(epoll, EPOLL_CTL_ADD, fd, events: Connection.readEvents)
            guard error == 0 else {
                Syscall.closeDescriptor(fd)
                continue
            }
            register(connection)
        }
    }

    /// Closes the connection that has waited longest on its client (head, body or keep-alive idle); false if
    /// every connection has a handler running or output pending.
    func displaceLongestWaiting() -> Bool {
        var victim: Connection?
        var oldest = UInt64.max
        for case let connection? in connections {
            if let since = connection.displacementRank, since < oldest {
                oldest = since
                victim = connection
            }
        }
        guard let victim else { return false }
        victim.close()
        return true
    }

    /// Removes the listener from this loop's epoll set for good (the server closes the descriptor later).
    func stopListening() {
        guard listener >= 0 else { return }
        if acceptPausedUntil == nil { _ = Syscall.epollControl(epoll, EPOLL_CTL_DEL, listener, events: 0) }
        listener = -1
    }

    func pauseAccepting(for nanoseconds: UInt64) {
        guard listener >= 0, acceptPausedUntil == nil else { return }
        _ = Syscall.epollControl(epoll, EPOLL_CTL_DEL, listener, events: 0)
        acceptPausedUntil = now &+ nanoseconds
    }

    /// Timeouts, buffer release, accept back-off and drain progress; runs every `sweepInterval`.
    func sweep() {
        nextSweep = now &+ sweepInterval
        if let until = acceptPausedUntil, now >= until, listener >= 0 {
            acceptPausedUntil = nil
            _ = Syscall.epollControl(
                epoll, EPOLL_CTL_ADD, listener, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue)
        }
        let timeouts = shared.configuration.timeouts
        for case let connection? in connections { connection.sweep(now: now, timeouts: timeouts) }
        if let deadline = drainDeadline, connectionCount == 0 || now >= deadline { stopped = true }
    }

    /// Starts a graceful shutdown: stop accepting, close idle connections, let the rest finish with
    /// `Connection: close` until `deadline`; `run()` returns when done.
    func beginDrain(deadline: UInt64) {
        drainDeadline = deadline
        stopListening()
        for case let connection? in connections where connection.isIdleForShutdown { connection.close() }
        if connectionCount == 0 { stopped = true }
    }
}
