package import Configuration

extension TokenServiceConfiguration {
    /// DPoP-bound sessions (`dpop.*`, RFC 9449; issue 35).
    public struct DPoP: Sendable, Equatable {
        /// `dpop.mode`.
        public enum Mode: String, Sendable, CaseIterable {
            /// A session is bound when its sign-in brings a valid proof (the default).
            case optional
            /// A bearer-mode sign-in or refresh without a proof is refused (`400 invalid_dpop_proof`); cookie mode
            /// stays unbound.
            case required
        }

        /// `dpop.mode`. Default: `optional`.
        public var mode: Mode = .optional
        /// `dpop.algorithms`: the proof algorithms accepted, among `ES256`, `EdDSA` and `RS256`. Default: `ES256`,
        /// `EdDSA`.
        public var algorithms: [String] = ["ES256", "EdDSA"]
        /// `dpop.maxAgeSeconds`: how old a proof's `iat` may be, 1…300. Default: 60.
        public var maxAgeSeconds: Int = 60
        /// `dpop.requireNonce`: proofs must carry the server's current nonce (`DPoP-Nonce`). Default: false.
        public var requireNonce: Bool = false
        /// `dpop.nonceSecret` or `dpop.nonceSecretFile`: the HMAC key of the stateless nonces, at least 64 bytes;
        /// the same on every instance. Needed only with `requireNonce`: generated into the development key file
        /// on SQLite, required on PostgreSQL.
        public var nonceSecret: Secret?
        /// `dpop.maxTrackedProofs`: how many proof ids one instance remembers in memory (SQLite) within their window;
        /// beyond it requests with a proof answer 503 until some expire. Default: 1000000 (about 40 MB at most).
        public var maxTrackedProofs: Int = 1_000_000

        /// The defaults.
        public init() {}

        /// The `dpop` section's keys; a key left out keeps its default.
        init(reader: ConfigReader) {
            self.init()
            mode = reader.string(forKey: "mode").flatMap(Mode.init(rawValue:)) ?? mode
            algorithms = reader.stringArray(forKey: "algorithms") ?? algorithms
            maxAgeSeconds = reader.int(forKey: "maxAgeSeconds") ?? maxAgeSeconds
            requireNonce = reader.bool(forKey: "requireNonce") ?? requireNonce
            nonceSecret = reader.optionalString(forKey: "nonceSecret", isSecret: true).map(Secret.init)
            maxTrackedProofs = reader.int(forKey: "maxTrackedProofs") ?? maxTrackedProofs
        }
    }
}
