import WebAuthn

/// The configuration and inputs most tests share.
enum Fixtures {
    static let challenge: [UInt8] = Array(repeating: 7, count: 32)
    static let userHandle: [UInt8] = Array(repeating: 9, count: 32)

    static func configuration(userVerification: PasskeyConfiguration.UserVerification = .required)
        -> PasskeyConfiguration
    {
        var configuration = PasskeyConfiguration()
        configuration.rpID = SoftwareCredential.rpID
        configuration.rpName = "Example"
        configuration.userVerification = userVerification
        return configuration
    }

    static func verifier(userVerification: PasskeyConfiguration.UserVerification = .required) throws
        -> RelyingPartyVerifier
    {
        try RelyingPartyVerifier(configuration: configuration(userVerification: userVerification))
    }
}
