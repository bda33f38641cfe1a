import IdentityProviders
import Store

/// What the browser flow (`GET /auth/oauth/{provider}`, its callback, `POST /auth/token`) works with: one
/// ``BrowserProvider`` per provider with browser settings, the app redirect URIs each accepts, and where flows and
/// one-time codes are kept (the database, so any instance can finish a flow another one started).
struct BrowserSignIn: Sendable {
    /// The providers by name (`identityProviders.<name>` entries with `clientId`).
    let providers: [String: BrowserProvider]
    /// `identityProviders.<name>.redirectURIs`, by provider name.
    let redirectURIs: [String: [String]]
    /// Flows and codes.
    let store: any OAuthFlowStoring
    /// `identity.flowLifetimeSeconds`.
    let flowLifetimeSeconds: Int
    /// `identity.maxPendingFlows`: live flows in all, on every instance; a start beyond it is 503.
    var maxPendingFlows = TokenServiceConfiguration.Identity.defaultMaxPendingFlows

    /// How long a one-time tokenvend code lives, in seconds.
    static let codeLifetimeSeconds = 60
    /// The longest `state` an app may send, in bytes.
    static let maximumAppStateBytes = 512
}
