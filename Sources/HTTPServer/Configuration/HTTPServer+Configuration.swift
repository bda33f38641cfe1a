extension HTTPServer {
    /// Listener address and limits. Every limit is finite by default.
    public struct Configuration: Sendable, Equatable {
        /// Address to bind (IPv4 or IPv6 literal). Default: `127.0.0.1`.
        public var host: String
        /// Port to bind; 0 picks a free port (read it back from `start()`). Default: 8080.
        public var port: Int
        /// Open connections at most; a new one displaces the connection that has waited longest on its client
        /// (for a request head, for the rest of a body, counted from the request's start, or idling in
        /// keep-alive), and is closed at once only when every connection has a handler running or output
        /// pending. Split evenly over the event loops. Default: 10000.
        public var maxConnections: Int
        /// Bytes of the header section, request line included (431 beyond). Default: 16384.
        public var maxHeaderBytes: Int
        /// Bytes of the request target (414 beyond). Default: 8192.
        public var maxTargetBytes: Int
        /// Bytes of a request body (413 beyond, answered before the body is read). Default: 65536.
        public var maxBodyBytes: Int
        /// Time to receive a whole request head, from accept or from its first byte on a keep-alive
        /// connection (408 and close; silent close if nothing arrived). Default: 10 s.
        public var headerTimeout: Duration
        /// Time to receive a whole request, head and body, from accept or from the head's first byte on a
        /// keep-alive connection (408 and close), however steadily its bytes trickle in. Default: 30 s.
        public var requestTimeout: Duration
        /// Longest pause between body bytes (408 and close). Default: 10 s.
        public var bodyIdleTimeout: Duration
        /// Longest keep-alive idle time between requests (silent close). Default: 60 s.
        public var idleTimeout: Duration
        /// Longest time pending output may make no progress before the connection is closed. Default: 10 s.
        public var writeTimeout: Duration
        /// Output bytes a connection may hold before it stops reading (and so stops answering pipelined
        /// requests) until the client reads; with the write timeout this bounds what a client that never
        /// reads can cost. One response may exceed it. Default: 16384.
        public var maxOutputBufferBytes: Int
        /// Grace period `run()` gives in-flight requests on SIGTERM/SIGINT. Default: 10 s.
        public var shutdownGrace: Duration
        /// Event loops (threads, each a serial Dispatch queue running an epoll loop); nil means one per CPU
        /// this process may run on. Default: nil.
        public var eventLoopCount: Int?
        /// Proxies whose `X-Forwarded-For` / `Forwarded` fields name the client (`ClientAddressResolver`); from
        /// any other peer both fields are ignored. Not an `init` parameter: set it on the value. Default: none.
        public var trustedProxies: [CIDR] = []

        /// Creates a configuration; every parameter defaults to the value documented on its property.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, maxConnections: Int = 10000, maxHeaderBytes: Int = 16384,
            maxTargetBytes: Int = 8192, maxBodyBytes: Int = 65536, headerTimeout: Duration = .seconds(10),
            requestTimeout: Duration = .seconds(30), bodyIdleTimeout: Duration = .seconds(10),
            idleTimeout: Duration = .seconds(60),
            writeTimeout: Duration = .seconds(10), maxOutputBufferBytes: Int = 16384,
            shutdownGrace: Duration = .seconds(10), eventLoopCount: Int? = nil
        ) {
            self.host = host
            self.port = port
            self.maxConnections = maxConnections
            self.maxHeaderBytes = maxHeaderBytes
            self.maxTargetBytes = maxTargetBytes
            self.maxBodyBytes = maxBodyBytes
            self.headerTimeout = headerTimeout
            self.requestTimeout = requestTimeout
            self.bodyIdleTimeout = bodyIdleTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.maxOutputBufferBytes = maxOutputBufferBytes
            self.shutdownGrace = shutdownGrace
            self.eventLoopCount = eventLoopCount
        }

        var parserLimits: HTTPRequestParser.Limits {
            .init(maxHeaderBytes: maxHeaderBytes, maxTargetBytes: maxTargetBytes, maxBodyBytes: maxBodyBytes)
        }

        var timeouts: ConnectionStateMachine.Timeouts {
            .init(
                header: headerTimeout.nanoseconds, request: requestTimeout.nanoseconds,
                bodyIdle: bodyIdleTimeout.nanoseconds,
                idle: idleTimeout.nanoseconds, write: writeTimeout.nanoseconds)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to 0...UInt64.max.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (total, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : total &+ UInt64(attoseconds / 1_000_000_000)
    }
}
