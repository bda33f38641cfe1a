extension TokenServiceConfiguration {
    /// A named signing key: one entry of `accessToken.keys` or `stream.keys`.
    ///
    /// In the file each entry is `{"kid": "...", "secret": "..."}` or `{"kid": "...", "secretFile": "/path"}`;
    /// `accessToken.keys` entries may also give `alg` (`HS512`, `ES256`, `EdDSA`), `state` and, for ES256 and
    /// EdDSA, `privateKey` or `privateKeyFile` (PEM or private JWK) instead of a secret.
    public struct SigningKey: Sendable, Equatable, CustomStringConvertible {
        /// Key identifier, written into the JWS header `kid`. Non-empty, unique within its key set.
        public var kid: String
        /// The HMAC secret; its UTF-8 bytes are the key (at least 64 bytes). Empty for ES256 and EdDSA keys.
        public var secret: Secret
        /// The one algorithm the key signs and verifies with. Default: ``Algorithm/hs512``.
        public var algorithm: Algorithm = .hs512
        /// The private key of an ES256 or EdDSA key: PKCS#8/SEC1 PEM or a private JWK, as text. `nil` for HS512.
        public var privateKey: Secret? = nil
        /// The state given in the configuration; `nil` when the set gives none (then `activeKid` decides, see
        /// ``TokenServiceConfiguration/AccessToken/state(of:)``). Default: `nil`.
        public var state: State? = nil

        /// A key with identifier `kid` and secret `secret`.
        public init(kid: String, secret: Secret) {
            self.kid = kid
            self.secret = secret
        }

        /// An asymmetric key (`ES256`, `EdDSA`) with its private key as PEM or private-JWK text.
        public init(kid: String, algorithm: Algorithm, privateKey: Secret, state: State? = nil) {
            self.kid = kid
            self.secret = Secret("")
            self.algorithm = algorithm
            self.privateKey = privateKey
            self.state = state
        }

        /// `kid`, algorithm, state and the secret's length, never key material.
        public var description: String {
            let material = privateKey.map { "privateKey: \($0)" } ?? "secret: \(secret)"
            let state = self.state.map { ", state: \($0.rawValue)" } ?? ""
            return "SigningKey(kid: \(kid), alg: \(algorithm.rawValue), \(material)\(state))"
        }
    }

    /// Access-token issuing and verification (`accessToken.*`).
    public struct AccessToken: Sendable, Equatable {
        /// `iss` claim written and required. Default: `tokenvend`.
        public var issuer: String = "tokenvend"
        /// `aud` claim written and required. Default: `tokenvend`.
        public var audience: String = "tokenvend"
        /// Lifetime of an access token. Default: 900 s.
        public var ttlSeconds: Int = 900
        /// Clock skew allowed when checking `exp` and `nbf`. Default: 30 s.
        public var leewaySeconds: Int = 30
        /// Signing and verification keys (HS512, ES256, EdDSA). Empty by default; after loading it is never
        /// empty: when none is configured a development HS512 key is generated and stored beside the database.
        public var keys: [SigningKey] = []
        /// The `kid` new tokens are signed with: a compatible alias of `state: current`. Default: the first key
        /// (or the key whose state is `current`). After loading it always names the current key.
        public var activeKid: String?

        /// The defaults.
        public init() {}

        /// The key named by ``activeKid`` (or the first key when it is unset); `nil` only before loading.
        public var activeKey: SigningKey? { keys.active(activeKid) }

        /// The state `key` is in: its configured ``SigningKey/state``, or, in a set that gives no states (the
        /// form before states existed), `current` for the ``activeKid`` key and `previous` for the others.
        public func state(of key: SigningKey) -> SigningKey.State {
            if let state = key.state { return state }
            return key.kid == (activeKid ?? keys.first?.kid) ? .current : .previous
        }
    }

    /// The public key set at `/.well-known/jwks.json` (`jwks.*`).
    public struct JWKS: Sendable, Equatable {
        /// `Cache-Control: public, max-age=` of the JWKS answer: how long verifiers may keep the set. A key must
        /// stay `standby` at least this long before it becomes `current`. Default: 600 s.
        public var maxAgeSeconds: Int = 600

        /// The defaults.
        public init() {}
    }

    /// Refresh-token lifetime, convergence window and MAC secret (`refreshToken.*`).
    public struct RefreshToken: Sendable, Equatable {
        /// Sliding lifetime: each rotation grants this much again (capped by `session.maxLifetimeSeconds`).
        /// Default: 2592000 s (30 days).
        public var ttlSeconds: Int = 2_592_000
        /// Window in which presenting the just-rotated token again returns the live one. Default: 10 s.
        public var reuseGraceSeconds: Int = 10
        /// MAC secret for refresh tokens (`refreshToken.secret` or `refreshToken.secretFile`), at least 64 bytes.
        /// `nil` by default; after loading it is always set: when absent a development secret is generated and
        /// stored beside the database.
        public var secret: Secret?

        /// The defaults.
        public init() {}
    }

    /// Session limits (`session.*`).
    public struct Session: Sendable, Equatable {
        /// Absolute cap on a session's life, whatever its refreshes. Default: 7776000 s (90 days).
        public var maxLifetimeSeconds: Int = 7_776_000
        /// Live sessions a user keeps; a login beyond it revokes the least recently used ones; 1…10000.
        /// Default: 100.
        public var maxPerUser: Int = 100

        /// The defaults.
        public init() {}
    }
}

extension [TokenServiceConfiguration.SigningKey] {
    /// The key whose `kid` is `kid`, or the first key when `kid` is `nil`.
    func active(_ kid: String?) -> Element? {
        guard let kid else { return first }
        return first { $0.kid == kid }
    }
}
