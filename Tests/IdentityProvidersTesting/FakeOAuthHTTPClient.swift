public import IdentityProviders
import Synchronization

/// An `OAuthHTTPClient` double: answers per URL (a response or an error), records every request (method, URL, form,
/// headers, bearer) and can hold requests until released, to line up concurrent callers. Unknown URLs answer
/// `.unreachable`. Safe from any task (state behind a `Mutex`).
public final class FakeOAuthHTTPClient: OAuthHTTPClient {
    /// One request as the client received it.
    public struct Request: Sendable {
        /// `GET` or `POST`.
        public var method: String
        public var url: String
        /// The form pairs of a `POST`, in order (empty for `GET`).
        public var form: [(String, String)]
        /// The extra headers of a `POST`.
        public var headers: [(String, String)]
        /// The bearer token of a `GET`.
        public var bearer: String?

        /// The value of the first form pair named `name`.
        public func formValue(_ name: String) -> String? { form.first { $0.0 == name }?.1 }
        /// The value of the first header named `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    private struct State {
        var answers: [String: Result<OAuthHTTPResponse, OAuthHTTPError>] = [:]
        var requests: [Request] = []
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// A client that answers `.unreachable` everywhere until told otherwise.
    public init() {}

    /// Answers `url` with `status`, `body` and `cacheControl` from now on.
    public func serve(_ url: String, status: Int = 200, body: [UInt8], cacheControl: String? = nil) {
        state.withLock {
            $0.answers[url] = .success(OAuthHTTPResponse(status: status, body: body, cacheControl: cacheControl))
        }
    }

    /// Answers `url` with `status` and the UTF-8 of `json`.
    public func serve(_ url: String, status: Int = 200, json: String, cacheControl: String? = nil) {
        serve(url, status: status, body: Array(json.utf8), cacheControl: cacheControl)
    }

    /// Fails every request to `url` with `error` from now on.
    public func fail(_ url: String, with error: OAuthHTTPError = .unreachable) {
        state.withLock { $0.answers[url] = .failure(error) }
    }

    /// Every request so far, in order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The requests to `url` so far.
    public func requests(to url: String) -> [Request] { requests.filter { $0.url == url } }

    /// Makes requests wait (after being recorded) until `release()`.
    public func hold() { state.withLock { $0.holding = true } }

    /// Lets held requests, and later ones, go on.
    public func release() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many requests wait for `release()`.
    public var heldCount: Int { state.withLock { $0.held.count } }

    public func postForm(_ url: String, form: [(String, String)], headers: [(String, String)])
        async throws(OAuthHTTPError) -> OAuthHTTPResponse
    {
        try await answer(Request(method: "POST", url: url, form: form, headers: headers, bearer: nil))
    }

    public func get(_ url: String, bearer: String?) async throws(OAuthHTTPError) -> OAuthHTTPResponse {
        try await answer(Request(method: "GET", url: url, form: [], headers: [], bearer: bearer))
    }

    private func answer(_ request: Request) async throws(OAuthHTTPError) -> OAuthHTTPResponse {
        let mustWait = state.withLock { state in
            state.requests.append(request)
            return state.holding
        }
        if mustWait {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stillHolding = state.withLock { state in
                    guard state.holding else { return false }
                    state.held.append(continuation)
                    return true
                }
                if !stillHolding { continuation.resume() }
            }
        }
        switch state.withLock({ $0.answers[request.url] }) {
        case .success(let response)?: return response
        case .failure(let error)?: throw error
        case nil: throw .unreachable
        }
    }
}
