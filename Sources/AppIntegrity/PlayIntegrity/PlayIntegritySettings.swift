/// The `integrity.android` section, compiled: the Play Console's keys and what a verdict must say.
public struct PlayIntegritySettings: Sendable, Equatable, CustomStringConvertible {
    /// The response-decryption key: 32 bytes (the Play Console shows it as base64; `decryptionKeyFile`).
    public var decryptionKey: [UInt8]
    /// The response-verification key: DER SubjectPublicKeyInfo of a P-256 key (the Play Console shows it as
    /// base64; `verificationKeyFile`).
    public var verificationKey: [UInt8]
    /// Accepted package names (`packageNames`); `requestPackageName` and `appIntegrity.packageName` must be in it.
    public var packageNames: [String]
    /// Accepted `appRecognitionVerdict` values (`appRecognitionVerdicts`). Default: `PLAY_RECOGNIZED`.
    public var appRecognitionVerdicts: [String]
    /// Accepted signing-certificate SHA-256 digests, 32 bytes each (`certificateDigests`, given as the Play
    /// Console shows them, hex with colons, or as verdicts carry them, base64url); empty: not checked.
    public var certificateDigests: [[UInt8]]
    /// Verdicts `deviceRecognitionVerdict` must all contain (`requiredDeviceVerdicts`). Default:
    /// `MEETS_DEVICE_INTEGRITY`.
    public var requiredDeviceVerdicts: [String]

    /// Creates settings.
    public init(
        decryptionKey: [UInt8], verificationKey: [UInt8], packageNames: [String],
        appRecognitionVerdicts: [String] = ["PLAY_RECOGNIZED"], certificateDigests: [[UInt8]] = [],
        requiredDeviceVerdicts: [String] = ["MEETS_DEVICE_INTEGRITY"]
    ) {
        self.decryptionKey = decryptionKey
        self.verificationKey = verificationKey
        self.packageNames = packageNames
        self.appRecognitionVerdicts = appRecognitionVerdicts
        self.certificateDigests = certificateDigests
        self.requiredDeviceVerdicts = requiredDeviceVerdicts
    }

    /// The package names only: never key material, so a configuration can be logged whole.
    public var description: String { "PlayIntegritySettings(packageNames: \(packageNames))" }
}
