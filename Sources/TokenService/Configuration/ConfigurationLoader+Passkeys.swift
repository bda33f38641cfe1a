import WebAuthn

extension ConfigurationLoader {
    /// Checks the `passkeys` section once every layer is applied (its `androidApps` section included): association
    /// apps need an RP id, and the relying party must build (the reader has checked each value already).
    /// - Throws: ``ConfigurationError/invalidValue`` naming the key.
    static func validatePasskeys(_ configuration: TokenServiceConfiguration) throws(ConfigurationError) {
        let passkeys = configuration.passkeys
        guard passkeys.isEnabled else {
            if !passkeys.androidApps.isEmpty {
                throw .invalidValue(
                    key: "passkeys.rpId", source: "",
                    reason: "required with passkeys.androidApps (the domain the passkeys belong to, such as "
                        + "example.com)")
            }
            return
        }
        do throws(PasskeyConfigurationError) {
            _ = try RelyingPartyVerifier(configuration: passkeys)
        } catch {
            throw .invalidValue(key: error.path, source: "", reason: error.reason)
        }
    }
}
