import Foundation
import TokenClient

#if canImport(ExponeaSDK)
    import ExponeaSDK
#else
    /// The Bloomreach SDK's protocol for customer tokens (`advancedAuthEnabled`), as its documentation shows it: the
    /// SDK makes the provider with `init()` and asks it for a token, synchronously, on a background thread, before each
    /// customer-token request. The SDK is not a dependency of this package, so the example compiles against the same
    /// shape.
    protocol AuthorizationProviderType: AnyObject {
        init()
        func getAuthorizationToken() -> String?
    }
#endif

// README: bloomreach-customer-token
/// What the SDK's provider reads on its background thread: the customer-token provider, and the customer ids the app
/// last gave `identifyCustomer`. Each call asks for the token of the ids current at that moment.
final class CustomerTokens: @unchecked Sendable {  // `lock` guards `provider` and `customerIds`
    static let shared = CustomerTokens()
    private let lock = NSLock()
    private var provider: BloomreachCustomerTokenProvider<AuthSession>?
    private var customerIds: [String: String] = [:]

    /// Call at launch with the name of the `bloomreach-customer` vendor in the server's configuration.
    func start(session: AuthSession, vendor: String) {
        lock.lock()
        defer { lock.unlock() }
        provider = BloomreachCustomerTokenProvider(session: session, vendor: vendor)
    }

    /// Call with the ids given to `Exponea.shared.identifyCustomer`; fetches their token ahead of the SDK's request.
    func identify(_ ids: [String: String]) {
        lock.lock()
        customerIds = ids
        let provider = self.provider
        lock.unlock()
        Task { _ = try? await provider?.token(customerIds: ids) }
    }

    /// The token for the current ids; blocks the calling (background) thread for at most 10 s. `nil` (no session,
    /// ids that are not the user's, a timeout, or a call on the main thread) fails that one request.
    func blockingToken() -> String? {
        lock.lock()
        let (provider, ids) = (self.provider, customerIds)
        lock.unlock()
        return provider?.blockingToken(customerIds: ids)
    }
}
// README-END

#if canImport(ObjectiveC)
    // README: bloomreach-authorization-provider
    @objc(ExponeaAuthProvider)  // the SDK finds the class by this name and makes it with init()
    final class CustomerTokenAuthProvider: NSObject, AuthorizationProviderType {
        override required init() {}

        func getAuthorizationToken() -> String? {
            CustomerTokens.shared.blockingToken()
        }
    }
// README-END
#else
    /// The same provider without `@objc`, which needs the Objective-C runtime: compiled here to check its shape.
    final class CustomerTokenAuthProvider: NSObject, AuthorizationProviderType {
        override required init() {}

        func getAuthorizationToken() -> String? {
            CustomerTokens.shared.blockingToken()
        }
    }
#endif
