import Foundation
import JWT
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Fetches a JWK Set over HTTP for `jwt verify --jwks URL`, with the limits a key download needs: `https`
/// (plain `http` only to a loopback IP literal or `localhost`), redirects followed only to `https`, at most
/// `JWKSet.maximumByteCount` bytes, and a deadline.
enum JWKSFetch {
    /// Why a fetch failed; the text names the rule, the URL the user gave, never a body.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not `https`, and not `http` to 127.0.0.0/8, `::1` or `localhost`.
        case insecureURL
        /// The server redirected to a URL that is not `https`.
        case insecureRedirect
        /// The body is (or announced to be) larger than the limit.
        case tooLarge(limit: Int)
        /// No complete answer within the deadline.
        case timedOut
        /// An answer other than 200.
        case status(Int)
        /// The transfer failed (connection refused, TLS, DNS…).
        case transport(String)

        var description: String {
            switch self {
            case .insecureURL: "must be an https URL (http only to a loopback address)"
            case .insecureRedirect: "redirect to a non-https URL refused"
            case .tooLarge(let limit): "larger than \(limit) bytes"
            case .timedOut: "no complete answer in time"
            case .status(let status): "HTTP status \(status)"
            case .transport(let reason): "cannot fetch: \(reason)"
            }
        }
    }

    /// The default deadline for the whole transfer, in seconds.
    static let defaultTimeout: TimeInterval = 10

    /// The body of a 200 answer to `GET source`.
    /// - Parameters:
    ///   - limit: the most body bytes accepted. Default: `JWKSet.maximumByteCount` (64 KiB).
    ///   - timeout: seconds for the whole transfer. Default: 10.
    static func fetch(
        _ source: String, limit: Int = JWKSet.maximumByteCount, timeout: TimeInterval = defaultTimeout
    ) throws(Failure) -> [UInt8] {
        guard let url = URL(string: source), isAllowed(url) else { throw .insecureURL }
        let delegate = Delegate(limit: limit)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        // Cancelling (a no-op once the task completed) happens off this thread, once the delegate callback that
        // answered has returned. swift-corelibs-foundation may go on reading a cancelled body for a while; the
        // delegate keeps none of it, and the command exits right after.
        defer { DispatchQueue.global().async { session.invalidateAndCancel() } }
        task.resume()
        // URLSession's own timeouts end the task; this wait is only a backstop.
        if delegate.done.wait(timeout: .now() + timeout + 5) == .timedOut { throw .timedOut }
        return try delegate.result()
    }

    /// Whether `url` may be fetched: `https`, or `http` to an IP literal in 127.0.0.0/8, to `::1`, or to the name
    /// `localhost`. A DNS name that merely starts with `127.` is not loopback.
    static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        if scheme == "https" { return true }
        guard scheme == "http" else { return false }
        return isLoopback(host: host)
    }

    /// `localhost`, an IPv4 literal whose first octet is 127, or the IPv6 literal `::1` (brackets allowed).
    static func isLoopback(host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            return bytes == [UInt8](repeating: 0, count: 15) + [1]
        }
        return false
    }

    /// Collects the answer, refusing non-https redirects and bodies over the limit.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var body: [UInt8] = []
            var status = 0
            var failure: Failure?
        }

        private let limit: Int
        private let state = Mutex(State())
        /// Signalled once the task completed, however.
        let done = DispatchSemaphore(value: 0)

        init(limit: Int) {
            self.limit = limit
        }

        func result() throws(Failure) -> [UInt8] {
            let state = state.withLock { $0 }
            if let failure = state.failure { throw failure }
            guard state.status == 200 else { throw .status(state.status) }
            return state.body
        }

        private func fail(_ failure: Failure) {
            state.withLock { if $0.failure == nil { $0.failure = failure } }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            guard request.url?.scheme?.lowercased() == "https" else {
                // Not followed: the redirect itself becomes the answer, and the fetch fails naming why.
                fail(.insecureRedirect)
                completionHandler(nil)
                return
            }
            completionHandler(request)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            state.withLock { $0.status = (response as? HTTPURLResponse)?.statusCode ?? 0 }
            if response.expectedContentLength > Int64(limit) {
                fail(.tooLarge(limit: limit))
                completionHandler(.cancel)
                done.signal()
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = state.withLock { state -> Bool in
                // Past the limit nothing more is kept, however long the transfer takes to stop.
                guard state.failure == nil else { return false }
                if state.status == 0 { state.status = (dataTask.response as? HTTPURLResponse)?.statusCode ?? 0 }
                state.body.append(contentsOf: data)
                guard state.body.count > limit else { return false }
                state.failure = .tooLarge(limit: limit)
                state.body = []
                return true
            }
            // Answer at once; the caller cancels the task. (Cancelling from inside this callback deadlocks
            // swift-corelibs-foundation: its transfer queue waits for the callback to return.)
            if over { done.signal() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            state.withLock { state in
                if state.status == 0 { state.status = (task.response as? HTTPURLResponse)?.statusCode ?? 0 }
            }
            if let error {
                let timedOut =
                    (error as NSError).domain == NSURLErrorDomain && (error as NSError).code == NSURLErrorTimedOut
                fail(timedOut ? .timedOut : .transport(error.localizedDescription))
            }
            done.signal()
        }
    }
}
