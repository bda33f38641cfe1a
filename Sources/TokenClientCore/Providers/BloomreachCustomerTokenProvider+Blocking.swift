import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The synchronous accessor for the Bloomreach SDK's `AuthorizationProviderType.getAuthorizationToken()`.
extension BloomreachCustomerTokenProvider {
    /// The customer token for `customerIds`, waiting for it on the calling thread for at most `timeout` seconds;
    /// `nil` on failure, on timeout, or when called where it must not wait.
    ///
    /// Made for `getAuthorizationToken()`, which the Bloomreach SDK calls on a background thread for each
    /// customer-token request and lets block (a `nil` fails that request):
    ///
    /// ```swift
    /// @objc(ExponeaAuthProvider)  // the SDK instantiates the class by this name
    /// final class CustomerTokenAuthProvider: NSObject, AuthorizationProviderType {
    ///     func getAuthorizationToken() -> String? {
    ///         // AppServices: the app's own holder of the provider and of the ids given to identifyCustomer.
    ///         AppServices.shared.customerTokens.blockingToken(customerIds: AppServices.shared.customerIds)
    ///     }
    /// }
    /// ```
    ///
    /// The wait cannot deadlock: the token is fetched by a task on Swift's cooperative pool while this thread
    /// waits, so this refuses (returns `nil` at once, without a request) when the calling thread could be one the
    /// task needs: inside a Swift task (an async function, an actor, the cooperative pool) or on the main thread,
    /// which also must not stall for a network request. A fresh cached token still takes one task hop. On
    /// timeout the fetch carries on and caches its token for the next call; call ``token(customerIds:)`` ahead
    /// of time (after sign-in, after `identifyCustomer`) so that the SDK's calls find one cached.
    /// - Parameters:
    ///   - customerIds: the ids the token is for, as in ``token(customerIds:)``.
    ///   - timeout: the longest wait in seconds; 10 by default.
    /// - Returns: the raw token (the SDK adds `Bearer `), or `nil`; the async methods tell why a fetch failed.
    public func blockingToken(customerIds: [String: String], timeout: TimeInterval = 10) -> String? {
        guard !isMainThread, !withUnsafeCurrentTask(body: { $0 != nil }) else { return nil }
        let result = BlockingResult()
        Task {
            let token = try? await self.token(customerIds: customerIds)
            result.value.withLock { $0 = token }
            result.done.signal()
        }
        guard result.done.wait(timeout: .now() + max(timeout, 0)) == .success else { return nil }
        return result.value.withLock { $0 }
    }
}

/// The token a blocked thread waits for, and the semaphore the fetching task signals.
///
/// `@unchecked`: `value` is behind its lock, and a `DispatchSemaphore` is thread-safe, but not every SDK's
/// Dispatch overlay declares it `Sendable`.
private final class BlockingResult: @unchecked Sendable {
    let value = Locked<String?>(nil)
    let done = DispatchSemaphore(value: 0)
}

#if canImport(FoundationEssentials)
    /// Whether this is the process's main thread: on Linux its thread id is the process id, and
    /// `/proc/thread-self` names both (`<pid>/task/<tid>`; Glibc's Swift module has no `gettid`).
    private var isMainThread: Bool {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        let text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let parts = text.split(separator: "/")
        return parts.count == 3 && parts[0] == parts[2]
    }
#else
    /// Whether this is the process's main thread.
    private var isMainThread: Bool { Thread.isMainThread }
#endif
