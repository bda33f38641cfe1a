/// A key that signs DPoP proofs (RFC 9449): a P-256 key (`ES256`) or an Ed25519 key (`EdDSA`) whose private half
/// stays with the client.
///
/// TokenClient ships ``SecureEnclaveDPoPKey`` (Apple platforms with a Secure Enclave) and software keys: on Apple
/// platforms CryptoKit's (``CryptoKitP256DPoPKey``, ``CryptoKitEd25519DPoPKey``), elsewhere the `Cryptography`
/// module's OpenSSL P-256 and libsodium Ed25519 (``SoftwareDPoPKey``). ``DPoPKeyKind`` makes and restores them; the
/// proof itself (``DPoPProofSigner``) only uses this protocol, so any key type can back it.
public protocol DPoPKey: Sendable {
    /// The JWS `alg` of the proofs this key signs.
    var algorithm: DPoPAlgorithm { get }
    /// The public key as the proof's header `jwk` carries it (no private member).
    var publicJWK: DPoPPublicJWK { get }
    /// The signature of `message`: for `ES256` the raw `R ‖ S` (64 bytes, never DER), for `EdDSA` 64 bytes.
    /// - Throws: when the key cannot sign (a Secure Enclave key the device no longer has).
    func sign(_ message: [UInt8]) throws -> [UInt8]
    /// What a ``DPoPKeyStore`` keeps to load this key again with ``DPoPKeyKind/restore(_:)``.
    /// - Throws: when the key cannot be exported.
    func material() throws -> DPoPKeyMaterial
}

extension DPoPKey {
    /// The key's RFC 7638 JWK SHA-256 thumbprint, base64url: the `jkt` a bound session's tokens carry.
    public var thumbprint: String { publicJWK.thumbprint }
}

/// The JWS algorithms a ``DPoPKey`` signs with (the server's default `dpop.algorithms`).
public enum DPoPAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// ECDSA P-256 with SHA-256 (RFC 7518 §3.4).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037).
    case edDSA = "EdDSA"
}
