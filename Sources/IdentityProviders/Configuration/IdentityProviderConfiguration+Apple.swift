import JWT
import StrictJSON

extension IdentityProviderConfiguration {
    /// The members of Sign in with Apple's REST API, on the `apple` preset only: `teamId`, `keyId`,
    /// `privateKeyFile` and `clientId` all or none; `tokenURL` and `revokeURL` optional.
    public static let appleRESTMembers = ["clientId", "keyId", "privateKeyFile", "revokeURL", "teamId", "tokenURL"]

    /// The four members that enable Apple's REST API together.
    static let appleRESTRequired = ["teamId", "keyId", "privateKeyFile", "clientId"]

    /// The Apple REST configuration of an entry on the `apple` preset (nil when none of its members is given).
    /// Every error names the member; the key file is read through `readFile` and never shown.
    static func appleREST(
        name: String, given: (String) -> JSONValue?, readFile: (String) throws -> String
    ) throws(IdentityProviderConfigurationError) -> AppleRESTConfiguration? {
        func member(_ member: String) -> Member { Member(path: "\(name).\(member)") }
        let present = appleRESTMembers.filter { given($0) != nil }
        guard !present.isEmpty else { return nil }
        if let missing = appleRESTRequired.first(where: { given($0) == nil }) {
            throw member(missing).fail(
                "missing; Sign in with Apple's REST API needs teamId, keyId, privateKeyFile and clientId together "
                    + "(given: \(present.joined(separator: ", ")))")
        }
        let teamId = try member("teamId").string(given("teamId") ?? .null)
        let keyId = try member("keyId").string(given("keyId") ?? .null)
        let clientId = try member("clientId").string(given("clientId") ?? .null)
        let path = try member("privateKeyFile").string(given("privateKeyFile") ?? .null)
        let pem: String
        do {
            pem = try readFile(path)
        } catch {
            throw member("privateKeyFile").fail("\(error)")
        }
        let tokenURL =
            try given("tokenURL").map { (value) throws(IdentityProviderConfigurationError) in
                try member("tokenURL").url(value)
            } ?? AppleRESTConfiguration.defaultTokenURL
        let revokeURL =
            try given("revokeURL").map { (value) throws(IdentityProviderConfigurationError) in
                try member("revokeURL").url(value)
            } ?? AppleRESTConfiguration.defaultRevokeURL
        do {
            return try AppleRESTConfiguration(
                teamId: teamId, keyId: keyId, clientId: clientId, privateKeyPEM: pem, tokenURL: tokenURL,
                revokeURL: revokeURL)
        } catch {
            throw member("privateKeyFile").fail(
                "\(path): not the .p8 Apple issued (an EC P-256 private key in PKCS#8 PEM): \(error)")
        }
    }
}
