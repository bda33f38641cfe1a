public import IdentityProviders
import Synchronization

/// A `JWKSFetching` double: serves a settable document or failure per URL, counts calls, and can hold fetches until
/// the test releases them (to line up concurrent callers). Safe from any task (state behind a `Mutex`).
public final class FakeJWKSFetcher: JWKSFetching {
    private struct State {
        var documents: [String: Result<JWKSDocument, JWKSFetchError>] = [:]
        var calls: [String] = []
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Creates a fetcher that answers `.unreachable` for every URL until told otherwise.
    public init() {}

    /// Serves `body` (with `maxAge`) at `url` from now on.
    public func serve(_ url: String, body: [UInt8], maxAge: Int? = nil) {
        state.withLock { $0.documents[url] = .success(JWKSDocument(body: body, maxAge: maxAge)) }
    }

    /// Fails every fetch of `url` with `error` from now on.
    public func fail(_ url: String, with error: JWKSFetchError = .unreachable("connection refused")) {
        state.withLock { $0.documents[url] = .failure(error) }
    }

    /// The URLs fetched so far, in order.
    public var calls: [String] { state.withLock { $0.calls } }

    /// How many fetches were made so far.
    public var callCount: Int { state.withLock { $0.calls.count } }

    /// Makes fetches wait (after being counted) until `release()`.
    public func hold() {
        state.withLock { $0.holding = true }
    }

    /// Lets held fetches, and later ones, go on.
    public func release() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many fetches are waiting for `release()`.
    public var heldCount: Int { state.withLock { $0.held.count } }

    /// Counts the call, waits while held, then answers what `url` serves.
    public func fetch(_ url: String) async throws(JWKSFetchError) -> JWKSDocument {
        let mustWait = state.withLock { state in
            state.calls.append(url)
            return state.holding
        }
        if mustWait {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard state.holding else { return true }
                    state.held.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        let answer = state.withLock { $0.documents[url] } ?? .failure(.unreachable("no document served"))
        return try answer.get()
    }
}
