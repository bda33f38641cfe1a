#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a verified classic Play Integrity token establishes.
public struct PlayIntegrityVerdict: Sendable, Equatable {
    /// `appIntegrity.packageName` (equal to `requestDetails.requestPackageName`).
    public var packageName: String
    /// `appIntegrity.appRecognitionVerdict`.
    public var appRecognitionVerdict: String
    /// `deviceIntegrity.deviceRecognitionVerdict`.
    public var deviceRecognitionVerdicts: [String]
    /// `requestDetails.timestampMillis`.
    public var timestamp: Date

    /// Creates a verdict.
    public init(
        packageName: String, appRecognitionVerdict: String, deviceRecognitionVerdicts: [String], timestamp: Date
    ) {
        self.packageName = packageName
        self.appRecognitionVerdict = appRecognitionVerdict
        self.deviceRecognitionVerdicts = deviceRecognitionVerdicts
        self.timestamp = timestamp
    }
}
