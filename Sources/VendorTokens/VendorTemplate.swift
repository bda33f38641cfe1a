import Cryptography
public import JWT

/// One compiled `vendors.<name>` template: checks a request body against the declared parameters, fills the
/// claims from the caller, the clock and the parameters, and signs with the active key.
///
/// Built once at startup by `VendorConfiguration.parse`; immutable and safe to share between threads. `issue`
/// is on the hot path: the literal parts of the claims were serialized at startup, so a vend appends bytes and
/// the substituted values, and signs with a `JWTSigner` whose header was encoded once.
///
/// ```swift
/// guard case .template(let chat) = try VendorConfiguration.parse(name: "chat", entry: entry) else { return }
/// let vended = try chat.issue(body: [:], caller: caller, now: now)   // {token, expiresIn, expiresAt, kid}
/// ```
public struct VendorTemplate: Sendable {
    /// The default `jti` source: 16 bytes from Cryptography's `SecureRandom`, base64url (22 characters). Returns
    /// the empty string when the generator fails; `issue` then refuses with `.unavailable` rather than sign a
    /// token without its unique id.
    public static let randomID: @Sendable () -> String = {
        (try? SecureRandom.base64URL(byteCount: 16)) ?? ""
    }

    /// The vendor name (`vendors.<name>`).
    public let name: String
    /// The signing algorithm of every key in the ring.
    public let algorithm: JWTAlgorithm
    /// The `kid` of the key that signs; `nil` when configured without keys (every `issue` throws `.unavailable`).
    public let activeKid: String?
    /// Lifetime of a token in seconds, `1...maxTtlSeconds`. Default: 3600 (LiveKit preset: 600).
    public let ttlSeconds: Int
    /// The hard upper bound of `ttlSeconds`. Default: 86400.
    public let maxTtlSeconds: Int
    /// How the HTTP layer answers.
    public let response: VendorResponseShape
    /// Whether `issue` reads `VendorCaller.customerIDs`: the template uses `{{user.customerIds}}` or declares a
    /// `customerIds` parameter. When false the caller's ids need not be loaded.
    public let needsCustomerIDs: Bool
    /// `emailCustomerId` (Bloomreach presets): a verified email is the `registered` customer id. Default: false.
    public let emailAsRegisteredCustomerID: Bool
    /// The declared parameter names, sorted.
    public let parameterNames: [String]

    /// The key ring (all keys, verification); `nil` when configured without keys.
    let keys: JWTKeySet?
    /// Signs with the active key and the precomputed header; `nil` when configured without keys.
    let signer: JWTSigner?
    /// The claims with their literal parts serialized.
    let claims: ClaimsTemplate
    /// The declared parameters, sorted by name (index = `Placeholder.parameter` index).
    let parameters: [VendorParameter]
    /// Body members refused on purpose, with the reason (LiveKit's `participant_identity`).
    let refusedMembers: [String: String]
    /// What `{{jti}}` is.
    let jtiMode: JTIMode
    /// Whether the claims use `{{jti}}` (else no id is made).
    let usesTokenID: Bool
    /// The `jti` source for `JTIMode.random`; injected in tests.
    let makeRandomID: @Sendable () -> String

    /// The verification key set (all ring keys), for tests and for checking our own tokens; `nil` when configured
    /// without keys.
    public var keySet: JWTKeySet? { keys }

    /// Each key's identity by the member path its material was given at (`apiSecret`, `keys[1].privateKey`), so
    /// that the configuration can refuse a key shared with access tokens, stream tokens or another vendor.
    public let keyIdentities: [String: KeyMaterialIdentity]
}
