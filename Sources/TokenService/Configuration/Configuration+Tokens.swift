extension TokenServiceConfiguration {
    /// A named HMAC secret: one entry of `accessToken.keys` or `stream.keys`.
    ///
    /// In the file each entry is `{"kid": "...", "secret": "..."}` or `{"kid": "...", "secretFile": "/path"}`.
    public struct SigningKey: Sendable, Equatable, CustomStringConvertible {
        /// Key identifier, written into the JWS header `kid`. Non-empty, unique within its key set.
        public var kid: String
        /// The secret; its UTF-8 bytes are the HMAC key (at least 64 bytes).
        public var secret: Secret

        /// A key with identifier `kid` and secret `secret`.
        public init(kid: String, secret: Secret) {
            self.kid = kid
            self.secret = secret
        }

        /// `kid` and the secret's length, never the secret.
        public var description: String { "SigningKey(kid: \(kid), secret: \(secret))" }
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
        /// Signing and verification keys (HS512). Empty by default; after loading it is never empty: when none
        /// is configured a development key is generated and stored beside the database.
        public var keys: [SigningKey] = []
        /// The `kid` new tokens are signed with. Default: the first key. After loading it always names a key.
        public var activeKid: String?

        /// The defaults.
        public init() {}

        /// The key named by ``activeKid`` (or the first key when it is unset); `nil` only before loading.
        public var activeKey: SigningKey? { keys.active(activeKid) }
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
