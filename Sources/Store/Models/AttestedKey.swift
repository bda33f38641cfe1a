#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Apple's App Attest environment of an attested key, from the attestation's AAGUID.
public enum AttestationEnvironment: String, Sendable, Hashable, CaseIterable {
    /// AAGUID `appattest` followed by seven zero bytes: an App Store, TestFlight or enterprise build.
    case production
    /// AAGUID `appattestdevelop`: a development build (accepted only with `integrity.apple.allowDevelopment`).
    case development
}

/// An App Attest key whose attestation tokenvend verified (`POST /integrity/apple/attest`), stored in
/// `app_attest_keys` so that later assertions (`POST /integrity/apple/assert`) need no round trip to Apple.
///
/// Keys belong to an app installation, not to a user: they survive account deletion and sign-out.
public struct AttestedKey: Sendable, Equatable {
    /// The key id exactly as the app sent it (standard base64 of the SHA-256 of `publicKey`): the primary key.
    public var keyID: String
    /// The key's public point, uncompressed SEC1 (65 bytes, `0x04 ‖ X ‖ Y`, P-256).
    public var publicKey: [UInt8]
    /// The sign counter of the last accepted assertion (0 right after attestation); an assertion must carry a
    /// greater one.
    public var counter: UInt32
    /// The app the key was attested for, `TEAMID.bundle.id` (one of `integrity.apple.appIds`).
    public var appID: String
    /// Production or development, from the attestation's AAGUID.
    public var environment: AttestationEnvironment
    /// When the attestation was verified.
    public var createdAt: Date
    /// When the last assertion was accepted; nil before the first.
    public var lastAssertedAt: Date?

    /// Creates a key record.
    public init(
        keyID: String, publicKey: [UInt8], counter: UInt32, appID: String, environment: AttestationEnvironment,
        createdAt: Date, lastAssertedAt: Date? = nil
    ) {
        self.keyID = keyID
        self.publicKey = publicKey
        self.counter = counter
        self.appID = appID
        self.environment = environment
        self.createdAt = createdAt
        self.lastAssertedAt = lastAssertedAt
    }
}
