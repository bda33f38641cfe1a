import Cryptography

/// Seals identity providers' refresh tokens for `identities.refresh_token` (and the revocation rows copied from
/// it): AES-256-GCM under `identity.tokenEncryptionKeyFile`, the provider's name as associated data, so a sealed
/// token moved to another provider's row does not open.
struct ProviderTokenSeal: Sendable {
    private let cipher: AES256GCM

    /// - Throws: `CryptographyError.weakKey` for a key that is not 32 bytes.
    init(key: TokenEncryptionKey) throws(CryptographyError) {
        cipher = try AES256GCM(key: key.bytes)
    }

    /// `nonce ‖ ciphertext ‖ tag` of `token`.
    func seal(_ token: String, provider: String) throws(CryptographyError) -> [UInt8] {
        try cipher.seal(Array(token.utf8), associatedData: Self.associatedData(provider))
    }

    /// The token sealed by ``seal(_:provider:)``.
    /// - Throws: `CryptographyError.authenticationFailed` when it was altered, sealed under another key or for
    ///   another provider.
    func open(_ sealed: [UInt8], provider: String) throws(CryptographyError) -> String {
        String(decoding: try cipher.open(sealed, associatedData: Self.associatedData(provider)), as: UTF8.self)
    }

    private static func associatedData(_ provider: String) -> [UInt8] {
        Array("tokenvend provider refresh token v1\u{0}\(provider)".utf8)
    }
}
