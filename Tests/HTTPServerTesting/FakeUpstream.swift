public import Foundation
import HTTPServer
import Logging
import Synchronization

/// A scripted upstream built on tokenvend's own `HTTPServer`, on 127.0.0.1 with a port the kernel picks: it
/// plays one ``Answer`` per request to `/identity/auth/token` (GET, POST, PUT or DELETE) and records what it
/// received. For answers no HTTP
/// server gives on purpose (no answer, not HTTP, endless bodies), use ``HostileUpstream``.
///
/// ```swift
/// try await withFakeUpstream(always: .init(status: 200, body: #"{"token":"t","expiresIn":3600}"#)) { upstream in
///     let moss = MossHTTPUpstream(configuration: .init(…, authURL: upstream.url, …))
///     …
/// }
/// ```
public final class FakeUpstream: Sendable {
    /// One scripted answer.
    public struct Answer: Sendable {
        /// The status.
        public var status: Int
        /// The body, sent with `Content-Type: application/json`.
        public var body: String
        /// How long to wait before answering (cut short by ``FakeUpstream/shutdown()``).
        public var delay: Duration
        /// Extra header fields (e.g. `Location`).
        public var headers: [String: String]

        /// Creates an answer; by default at once and without extra headers.
        public init(status: Int, body: String, delay: Duration = .zero, headers: [String: String] = [:]) {
            self.status = status
            self.body = body
            self.delay = delay
            self.headers = headers
        }
    }

    /// A request as received.
    public struct Request: Sendable {
        /// The method token.
        public var method: String
        /// The request target (path and query).
        public var target: String
        /// Header fields, names lowercased.
        public var headers: [String: String]
        /// The body bytes.
        public var body: [UInt8]
    }

    private struct State {
        var requests: [Request] = []
        var stopped = false
    }

    /// The state the handler and the test share.
    private final class Recorder: Sendable {
        let state = Mutex(State())
    }

    /// The port the server listens on.
    public let port: Int
    private let server: HTTPServer
    private let recorder = Recorder()

    /// Starts the server; `script` picks the answer to the n-th request (0-based).
    public init(script: @escaping @Sendable (Int) -> Answer) throws {
        let recorder = self.recorder
        var router = Router()
        let handler: Router.AsyncHandler = { request, _ in
            let received = Request(
                method: request.method.rawValue,
                target: request.query.map { "\(request.path)?\($0)" } ?? request.path,
                headers: Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }) { _, last in last },
                body: request.body)
            let index = recorder.state.withLock { state in
                state.requests.append(received)
                return state.requests.count - 1
            }
            let answer = script(index)
            let deadline = ContinuousClock.now + answer.delay
            while ContinuousClock.now < deadline, !recorder.state.withLock({ $0.stopped }) {
                try await Task.sleep(for: min(.milliseconds(10), deadline - ContinuousClock.now))
            }
            var headers = HTTPHeaders()
            for (name, value) in answer.headers { headers.add(name: name, value: value) }
            return .json(status: HTTPStatus(code: answer.status), bytes: Array(answer.body.utf8), headers: headers)
        }
        for method in [HTTPMethod.get, .post, .put, .delete] {
            router.on(method, "/identity/auth/token", .async(handler))
        }
        var configuration = HTTPServer.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoopCount = 1
        server = HTTPServer(
            configuration: configuration, router: router,
            logger: Logger(label: "fake-upstream") { _ in SwiftLogNoOpLogHandler() })
        port = try server.start()
    }

    /// Answers every request the same way.
    public convenience init(always answer: Answer) throws {
        try self.init(script: { _ in answer })
    }

    /// `http://127.0.0.1:<port>/identity/auth/token`, the only path it serves.
    public var url: URL { Self.url(port: port) }

    /// Requests received so far, in arrival order.
    public var requests: [Request] { recorder.state.withLock { $0.requests } }

    /// Number of requests received.
    public var callCount: Int { recorder.state.withLock { $0.requests.count } }

    /// Cuts scripted delays short and stops the server at once. Idempotent.
    public func shutdown() async {
        recorder.state.withLock { $0.stopped = true }
        _ = await server.shutdown(gracePeriod: .zero)
    }

    static func url(port: Int) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        components.path = "/identity/auth/token"
        return components.url ?? URL(fileURLWithPath: "/")
    }
}

/// Runs `body` against a fresh ``FakeUpstream`` and always shuts it down.
public func withFakeUpstream<T>(
    script: @escaping @Sendable (Int) -> FakeUpstream.Answer, _ body: (FakeUpstream) async throws -> T
) async throws -> T {
    let upstream = try FakeUpstream(script: script)
    do {
        let result = try await body(upstream)
        await upstream.shutdown()
        return result
    } catch {
        await upstream.shutdown()
        throw error
    }
}

/// Runs `body` against a fresh ``FakeUpstream`` that answers every request with `answer`, and always shuts it down.
public func withFakeUpstream<T>(always answer: FakeUpstream.Answer, _ body: (FakeUpstream) async throws -> T)
    async throws -> T
{
    try await withFakeUpstream(script: { _ in answer }, body)
}
