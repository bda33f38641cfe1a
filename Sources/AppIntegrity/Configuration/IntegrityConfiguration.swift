/// The `integrity` section (issue 34): the exchange's platforms, the integrity token's lifetime, the per-route
/// policy and debug tokens. Read by `IntegrityConfiguration(reader:...)` (this module reads its own section).
///
public struct IntegrityConfiguration: Sendable, Equatable {
    /// The `integrity.apple` section.
    public struct Apple: Sendable, Equatable {
        /// `appIds`: `TEAMID.bundle.id` of each accepted app.
        public var appIDs: [String]
        /// `allowDevelopment`: accept development-environment keys. Default: false.
        public var allowDevelopment: Bool
        /// `rootCertificateFile`: a PEM file replacing Apple's built-in root (tests), or nil.
        public var rootCertificateFile: String?
        /// The PEM read from `rootCertificateFile` (tests), or nil for Apple's built-in root.
        public var rootCertificatePEM: String?

        /// Creates the section.
        public init(
            appIDs: [String], allowDevelopment: Bool = false, rootCertificateFile: String? = nil,
            rootCertificatePEM: String? = nil
        ) {
            self.appIDs = appIDs
            self.allowDevelopment = allowDevelopment
            self.rootCertificateFile = rootCertificateFile
            self.rootCertificatePEM = rootCertificatePEM
        }
    }

    /// Seconds an integrity token lives (`tokenLifetimeSeconds`, 60–86400). Default: 3600.
    public var tokenLifetimeSeconds = 3600
    /// Unexpired challenges stored at most (`maxPendingChallenges`, across every instance on PostgreSQL); beyond
    /// it `POST /integrity/challenge` answers 503. Default: 10000.
    public var maxPendingChallenges = 10_000
    /// `routes.<route>`; a route not listed is `off`.
    public var routes: [IntegrityRoute: IntegrityMode] = [:]
    /// `apple`: App Attest; nil when `apple.appIds` is not set (`/integrity/apple/*` answer 404).
    public var apple: Apple?
    /// `android`: classic Play Integrity; nil when not configured (`/integrity/android` answers 404).
    public var android: PlayIntegritySettings?
    /// `firebase`: App Check tokens; nil when not configured (`X-Firebase-AppCheck` is then not accepted).
    public var firebase: AppCheckSettings?
    /// `debugTokens`: the SHA-256 (32 bytes, configured as hex) of each accepted debug secret.
    public var debugTokenHashes: [[UInt8]] = []
    /// `allowDebugTokens`: accept `X-App-Integrity: debug:<secret>`. Default: false; a warning at startup when true.
    public var allowDebugTokens = false

    /// The defaults: every route `off`, no platform configured.
    public init() {}

    /// The mode of `route` (`off` unless configured).
    public func mode(for route: IntegrityRoute) -> IntegrityMode { routes[route] ?? .off }

    /// Whether any route checks tokens (`report` or `require`).
    public var isChecking: Bool { routes.values.contains { $0 != .off } }
}
