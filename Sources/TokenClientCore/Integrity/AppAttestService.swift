/// The four calls of DeviceCheck's `DCAppAttestService` that ``AppAttestIntegrityProvider`` makes, behind a protocol
/// so the provider's logic runs (and is tested) where DeviceCheck does not exist. `TokenClient`'s
/// `DeviceCheckAppAttestService` is the real one on Apple platforms.
public protocol AppAttestService: Sendable {
    /// `DCAppAttestService.isSupported`.
    var isSupported: Bool { get }
    /// `generateKey()`: a new key in the Secure Enclave; its id (standard base64).
    func generateKey() async throws -> String
    /// `attestKey(_:clientDataHash:)`: Apple's attestation object for the key.
    func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8]
    /// `generateAssertion(_:clientDataHash:)`: an assertion (signature and counter) by the key.
    /// - Throws: ``AppAttestServiceError/invalidKey`` when the key is gone or unusable (`DCError.invalidKey`).
    func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8]
}

/// The failure of an ``AppAttestService`` that the provider acts on.
public enum AppAttestServiceError: Error, Sendable, Equatable {
    /// The key is unknown or can no longer be used (`DCError.invalidKey`): a new key is generated and attested.
    case invalidKey
}
