import CHTTPServerLinux
import Logging
import StructuredLogging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One epoll loop running on a serial Dispatch queue's thread; owns its connections.
///
/// Everything but `inbox` is touched only on the loop's thread. Other threads hand work in with `post(_:)`,
/// which appends to the `Mutex`-protected inbox and wakes the loop through an eventfd.
@safe final class EventLoop: @unchecked Sendable {
    let shared: ServerShared
    /// Hot copies of `shared` fields, so the request path does not copy (and retain) the whole struct.
    let router: Router
    let logger: Logger
    /// The logger's handler when it takes pre-sorted fields (`StructuredLogHandler`): the access line's fast path.
    let sortedFieldsHandler: (any SortedFieldsLogging)?
    let observer: (@Sendable (CompletedRequest) -> Void)?
    let afterEvents: (@Sendable () -> Void)?
    let maxOutputBufferBytes: Int
    let epoll: Int32
    let wakeDescriptor: Int32
    private let inbox = Mutex<[@Sendable () -> Void]>([])
    var listener: Int32
    var connections: [Connection?] = []
    var connectionCount = 0
    let connectionLimit: Int
    let scratch: UnsafeMutableRawBufferPointer
    var now: UInt64
    var dateSecond = -1
    var date: [UInt8] = []
    var requestIDs = RequestIDGenerator()
    var acceptPausedUntil: UInt64?
    var drainDeadline: UInt64?
    var stopped = false
    /// Called once when `run()` returns, with the number of connections closed mid-request at the drain deadline.
    var onStopped: (@Sendable (Int) -> Void)?
    let sweepInterval: UInt64
    var nextSweep: UInt64

    init(shared: ServerShared, listener: Int32, connectionLimit: Int) throws(HTTPServerError) {
        self.shared = shared
        self.router = shared.router
        self.logger = shared.logger
        self.sortedFieldsHandler = shared.logger.handler as? any SortedFieldsLogging
        self.observer = shared.observer
        self.afterEvents = shared.afterEvents
        self.maxOutputBufferBytes = shared.configuration.maxOutputBufferBytes
        self.listener = listener
        self.connectionLimit = connectionLimit
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .socket(operation: "epoll_create1", errno: errno) }
        let wake = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wake >= 0 else {
            let error = errno
            Syscall.closeDescriptor(epoll)
            throw .socket(operation: "eventfd", errno: error)
        }
        self.epoll = epoll
        self.wakeDescriptor = wake
        unsafe scratch = .allocate(byteCount: 65536, alignment: 16)
        now = Syscall.monotonicNanoseconds()
        let timeouts = shared.configuration.timeouts
        let shortest = min(timeouts.header, timeouts.request, timeouts.bodyIdle, timeouts.idle, timeouts.write)
        sweepInterval = min(max(shortest / 4, 5_000_000), 500_000_000)
        nextSweep = now &+ sweepInterval
        var error = Syscall.epollControl(epoll, EPOLL_CTL_ADD, wake, events: EPOLLIN.rawValue)
        if error == 0 {
            error = Syscall.epollControl(
                epoll, EPOLL_CTL_ADD, listener, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue)
        }
        guard error == 0 else {
            Syscall.closeDescriptor(epoll)
            Syscall.closeDescriptor(wake)
            unsafe scratch.deallocate()
            throw .socket(operation: "epoll_ctl", errno: error)
        }
    }

    deinit { unsafe scratch.deallocate() }

    /// Runs `work` on the loop's thread soon. Safe from any thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        let wasEmpty = inbox.withLock { queue in
            queue.append(work)
            return queue.count == 1
        }
        if wasEmpty {
            var one: UInt64 = 1
            _ = unsafe write(wakeDescriptor, &one, 8)
        }
    }

    /// The loop; returns after a shutdown has drained (or force-closed) every connection.
    func run() {
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { unsafe events.deallocate() }
        while !stopped {
            let wait = nextSweep > now ? Int32(clamping: (nextSweep - now) / 1_000_000 + 1) : 0
            let count = unsafe epoll_wait(epoll, events, Int32(capacity), wait)
            let error = errno
            now = Syscall.monotonicNanoseconds()
            if count < 0 {
                if error == EINTR { continue }
                shared.logger.error("epoll_wait failed", metadata: ["errno": "\(error)"])
                break
            }
            for index in 0..<Int(count) {
                let fd = unsafe events[index].data.fd
                let flags = unsafe events[index].events
                if fd == wakeDescriptor {
                    drainInbox()
                } else if fd == listener {
                    acceptConnections()
                } else if Int(fd) < connections.count, let connection = connections[Int(fd)] {
                    connection.handle(events: flags)
                }
            }
            if now >= nextSweep { sweep() }
            afterEvents?()
        }
        var abandoned = 0
        for case let connection? in connections {
            if connection.hasRequestInFlight { abandoned += 1 }
            connection.close()
        }
        if abandoned > 0 {
            logger.info("shutdown grace period ran out", metadata: ["connections.abandoned": "\(abandoned)"])
        }
        afterEvents?()
        Syscall.closeDescriptor(epoll)
        Syscall.closeDescriptor(wakeDescriptor)
        onStopped?(abandoned)
    }

    private func drainInbox() {
        var value: UInt64 = 0
        _ = unsafe read(wakeDescriptor, &value, 8)
        let work = inbox.withLock { queue in
            let taken = queue
            queue.removeAll()
            return taken
        }
        for item in work { item() }
    }

    /// The cached IMF-fixdate for the current second.
    var currentDate: [UInt8] {
        let second = time(nil)
        if second != dateSecond {
            dateSecond = second
            date = ResponseSerializer.httpDate(second)
        }
        return date
    }

    func register(_ connection: Connection) {
        let fd = Int(connection.fd)
        if fd >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: max(fd + 1 - connections.count, 1024)))
        }
        connections[fd] = connection
        connectionCount += 1
    }

    func unregister(_ connection: Connection) {
        let fd = Int(connection.fd)
        guard fd < connections.count, connections[fd] === connection else { return }
        connections[fd] = nil
        connectionCount -= 1
    }
}
