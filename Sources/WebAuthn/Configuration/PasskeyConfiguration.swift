/// The `passkeys` section (issue 36): the relying party, its accepted origins, the user-verification policy, the
/// ceremony timeout, and the apps whose association files tokenvend serves. Passkeys are on when `rpID` is set.
public struct PasskeyConfiguration: Sendable, Equatable {
    /// WebAuthn's user-verification requirement (`passkeys.userVerification`).
    public enum UserVerification: String, Sendable, Hashable, CaseIterable {
        /// Flag UV must be set (the default): biometrics or the device passcode at every ceremony.
        case required
        /// Asked for, not checked.
        case preferred
        /// Not asked for, not checked.
        case discouraged
    }

    /// An Android app (`passkeys.androidApps[]`): its package and the SHA-256 digests of its signing certificates.
    public struct AndroidApp: Sendable, Equatable {
        /// The application id, e.g. `com.example.app`.
        public var packageName: String
        /// The SHA-256 of each signing certificate, 32 bytes each (configured as uppercase or lowercase hex, with or
        /// without colons).
        public var certificateFingerprints: [[UInt8]]

        /// Creates an app.
        public init(packageName: String, certificateFingerprints: [[UInt8]]) {
            self.packageName = packageName
            self.certificateFingerprints = certificateFingerprints
        }
    }

    /// `passkeys.rpId`: the RP id, a domain (`example.com`); nil turns passkeys off (every passkey endpoint and
    /// both association files answer 404).
    public var rpID: String?
    /// `passkeys.rpName`: the name platforms show; defaults to the RP id.
    public var rpName: String?
    /// `passkeys.origins`: `https://…` origins (the RP id or one of its subdomains; `http://localhost[:port]` when
    /// the RP id is `localhost`) and `android:apk-key-hash:<base64url>` entries; empty means `https://<rpId>`.
    public var origins: [String] = []
    /// `passkeys.userVerification` (`required`).
    public var userVerification: UserVerification = .required
    /// `passkeys.timeoutSeconds` (300): a challenge's lifetime; the options' `timeout` is this × 1000.
    public var timeoutSeconds: Int = 300
    /// `passkeys.appleAppIds`: `TEAMID.bundle.id` entries for `/.well-known/apple-app-site-association`.
    public var appleAppIDs: [String] = []
    /// `passkeys.androidApps`: the apps of `/.well-known/assetlinks.json`; each fingerprint also adds its
    /// `android:apk-key-hash:` origin to the accepted origins.
    public var androidApps: [AndroidApp] = []
    /// `passkeys.maxPendingChallenges` (100,000): unexpired challenges stored at most (across every instance).
    public var maxPendingChallenges: Int = 100_000

    /// Passkeys off.
    public init() {}

    /// Whether passkeys are on (`rpID` set).
    public var isEnabled: Bool { rpID != nil }

    /// The name platforms show: `rpName`, else the RP id.
    public var relyingPartyName: String { rpName ?? rpID ?? "" }

    /// The origins a ceremony's client data may name: `origins` (or `https://<rpId>` when empty) followed by the
    /// `android:apk-key-hash:` origin of every Android fingerprint, without duplicates.
    public var acceptedOrigins: [String] {
        var accepted: [String] = []
        let configured = origins.isEmpty ? rpID.map { ["https://\($0)"] } ?? [] : origins
        let android = androidApps.flatMap(\.certificateFingerprints).map {
            PasskeyAssociations.apkKeyHashOrigin(fingerprint: $0)
        }
        for origin in configured + android where !accepted.contains(origin) { accepted.append(origin) }
        return accepted
    }
}
