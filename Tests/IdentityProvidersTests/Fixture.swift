import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Synchronization

/// A provider shaped like Apple (issuer, sha256 nonce, RS256 and ES256), its keys made once per test process, a
/// fake fetcher serving them at the provider's key URL, and a hand-moved clock.
struct Fixture {
    static let url = "https://appleid.apple.com/auth/keys"
    static let issuer = "https://appleid.apple.com"
    static let audience = "com.example.app"
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    /// Keys are slow to make (RSA); one set serves every test.
    static let rsa: TestRSAKey = {
        do { return try TestRSAKey(kid: "rsa-1") } catch { preconditionFailure("RSA key: \(error)") }
    }()
    static let rotated: TestRSAKey = {
        do { return try TestRSAKey(kid: "rsa-2") } catch { preconditionFailure("RSA key: \(error)") }
    }()
    static let ec: JWTKey = {
        do { return try JWTKey.generate(kid: "ec-1", algorithm: .es256) } catch { preconditionFailure("\(error)") }
    }()

    let fetcher = FakeJWKSFetcher()
    let clock = ManualClock(Fixture.start)
    let events = EventLog()
    let provider: IdentityProvider
    let cache: ProviderKeyCache
    let verifier: IDTokenVerifier

    init(
        nonce: NonceMode = .sha256, audiences: [String] = [Fixture.audience],
        algorithms: Set<JWTAlgorithm> = [.rs256, .es256], keys: [JSONObject]? = nil, maxAge: Int? = nil
    ) throws {
        provider = try IdentityProvider(
            name: "apple", issuers: [Self.issuer], jwksURL: Self.url, audiences: audiences, nonce: nonce,
            algorithms: algorithms)
        let events = self.events
        cache = ProviderKeyCache(fetcher: fetcher, clock: clock.closure) { events.append($0) }
        verifier = IDTokenVerifier(provider: provider, keys: cache)
        let ecJWK = try requireJWKObject(Self.ec)
        fetcher.serve(Self.url, body: TestIDToken.jwks(keys ?? [Self.rsa.publicJWK, ecJWK]), maxAge: maxAge)
    }

    /// Claims of a good token at the fixture's start time: issued 10 s ago, expiring in 10 minutes.
    static func claims(_ changes: [String: JSONValue?] = [:], at now: Date = Fixture.start) -> JSONObject {
        let issued = Int64(now.timeIntervalSince1970) - 10
        var object: JSONObject = [
            "iss": .string(issuer), "aud": .string(audience), "exp": .integer(issued + 600), "iat": .integer(issued),
            "sub": "001234.abcdef", "email": "ada@example.com", "email_verified": "true",
        ]
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) { object[name] = value }
        return object
    }

    /// An RS256 token with `claims` signed by `key` (default: the published RSA key).
    static func token(_ claims: JSONObject = Fixture.claims(), key: TestRSAKey = Fixture.rsa) throws -> String {
        try TestIDToken.rs256(claims, key: key)
    }

    /// Verifies at the clock's current time.
    func verify(_ token: String, nonce: String? = nil) async throws(IDTokenFailure) -> VerifiedIDToken {
        try await verifier.verify(token, nonce: nonce, now: clock.now)
    }

    /// The failure of verifying `token` by its reason alone, or nil when it verified: a refusal after the signature
    /// held (`rejectedSigned`) is given as `.rejected(reason)`, so that a test of one check need not name the
    /// subject; ``thrown(_:nonce:)`` keeps it.
    func failure(_ token: String, nonce: String? = nil) async -> IDTokenFailure? {
        switch await thrown(token, nonce: nonce) {
        case .rejectedSigned(let reason, _)?: .rejected(reason)
        case let other: other
        }
    }

    /// The failure of verifying `token` exactly as the verifier threw it, or nil when it verified.
    func thrown(_ token: String, nonce: String? = nil) async -> IDTokenFailure? {
        do {
            _ = try await verify(token, nonce: nonce)
            return nil
        } catch {
            return error
        }
    }
}

/// The public JWK of an ES256 key as a JSON object.
func requireJWKObject(_ key: JWTKey) throws -> JSONObject {
    guard let jwk = key.publicJWK() else { throw TestKeyError.openSSL("no public JWK") }
    let set = try JSONValue.parse(JWKSet(keys: [jwk]).serialized())
    guard case .array(let keys)? = set.objectValue?["keys"], case .object(let object)? = keys.first else {
        throw TestKeyError.openSSL("JWK Set shape")
    }
    return object
}

/// What the cache reported, in order.
final class EventLog: Sendable {
    private let events = Mutex<[ProviderKeyCache.Event]>([])
    func append(_ event: ProviderKeyCache.Event) { events.withLock { $0.append(event) } }
    var all: [ProviderKeyCache.Event] { events.withLock { $0 } }
}
