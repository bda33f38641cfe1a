import IdentityProviders

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ConfigurationLoader {
    /// The key path of the token encryption key file, for messages.
    static let tokenEncryptionKeyPath = "identity.tokenEncryptionKeyFile"

    /// Reads `identity.tokenEncryptionKeyFile`: a regular file without access for group or others (0600), holding
    /// one line of base64 that decodes to exactly 32 bytes. Without the file: nil, unless a provider configures
    /// Sign in with Apple's REST API, whose refresh tokens must be sealed (then startup refuses).
    /// - Throws: ``ConfigurationError/invalidValue`` naming `identity.tokenEncryptionKeyFile`; the message names
    ///   the path, never the contents.
    static func tokenEncryptionKey(
        _ identity: TokenServiceConfiguration.Identity
    ) throws(ConfigurationError) -> TokenEncryptionKey? {
        func fail(_ reason: String) -> ConfigurationError {
            .invalidValue(key: tokenEncryptionKeyPath, source: "", reason: reason)
        }
        guard let path = identity.tokenEncryptionKeyFile else {
            if let provider = identity.providers.first(where: { $0.appleREST != nil }) {
                throw fail(
                    "missing; identityProviders.\(provider.name) configures Sign in with Apple's REST API, whose "
                        + "refresh tokens are kept encrypted with this key: give a file holding the output of "
                        + "`openssl rand -base64 32` (mode 0600)")
            }
            return nil
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw fail("cannot read \"\(path)\": \(errno == ENOENT ? "no such file" : "not accessible")")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw fail("cannot read \"\(path)\": not a regular file") }
        guard info.st_mode & 0o077 == 0 else {
            let mode = "0" + String(info.st_mode & 0o777, radix: 8)
            throw fail("\"\(path)\" has mode \(mode), which gives other users access; chmod 600 it")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw fail("cannot read \"\(path)\": not readable")
        }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard lines.count == 1, let line = lines.first,
            let key = Data(base64Encoded: String(line).trimmingWhitespace), key.count == 32
        else {
            throw fail(
                "\"\(path)\" must hold one line of base64 decoding to exactly 32 bytes (`openssl rand -base64 32`)")
        }
        return TokenEncryptionKey(bytes: Array(key))
    }
}
