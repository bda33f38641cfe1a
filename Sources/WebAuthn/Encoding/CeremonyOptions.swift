import Cryptography
import StrictJSON

/// The options JSON of the two ceremonies (WebAuthn Level 3 `PublicKeyCredentialCreationOptionsJSON` and
/// `PublicKeyCredentialRequestOptionsJSON`), written compactly with every binary member base64url without padding.
public enum CeremonyOptions {
    /// A credential to exclude (`excludeCredentials`).
    public struct Descriptor: Sendable, Equatable {
        /// The credential id.
        public var id: [UInt8]
        /// Its transports, possibly none (then the member is left out).
        public var transports: [String]

        /// Creates a descriptor.
        public init(id: [UInt8], transports: [String]) {
            self.id = id
            self.transports = transports
        }
    }

    /// `{"challenge", "rp": {"id", "name"}, "user": {"id", "name", "displayName"}, "pubKeyCredParams": [ES256,
    /// EdDSA, RS256], "excludeCredentials", "authenticatorSelection": {"residentKey": "required",
    /// "requireResidentKey": true, "userVerification"}, "attestation": "none", "timeout"}` (milliseconds).
    public static func creation(
        challenge: [UInt8], configuration: PasskeyConfiguration, userHandle: [UInt8], userName: String,
        displayName: String, excluding: [Descriptor]
    ) -> [UInt8] {
        let parameters = COSEAlgorithm.allCases.map { algorithm -> JSONValue in
            .object(["type": "public-key", "alg": .integer(Int64(algorithm.rawValue))])
        }
        let excluded = excluding.map { descriptor -> JSONValue in
            var object: JSONObject = ["type": "public-key", "id": .string(Base64URL.encode(descriptor.id))]
            if !descriptor.transports.isEmpty {
                object["transports"] = .array(descriptor.transports.map(JSONValue.string))
            }
            return .object(object)
        }
        let options: JSONObject = [
            "challenge": .string(Base64URL.encode(challenge)),
            "rp": ["id": .string(configuration.rpID ?? ""), "name": .string(configuration.relyingPartyName)],
            "user": [
                "id": .string(Base64URL.encode(userHandle)), "name": .string(userName),
                "displayName": .string(displayName),
            ],
            "pubKeyCredParams": .array(parameters),
            "excludeCredentials": .array(excluded),
            "authenticatorSelection": [
                "residentKey": "required", "requireResidentKey": true,
                "userVerification": .string(configuration.userVerification.rawValue),
            ],
            "attestation": "none",
            "timeout": timeout(configuration),
        ]
        return options.serialized()
    }

    /// `{"challenge", "rpId", "userVerification", "timeout", "allowCredentials": []}`.
    public static func request(challenge: [UInt8], configuration: PasskeyConfiguration) -> [UInt8] {
        let options: JSONObject = [
            "challenge": .string(Base64URL.encode(challenge)),
            "rpId": .string(configuration.rpID ?? ""),
            "userVerification": .string(configuration.userVerification.rawValue),
            "timeout": timeout(configuration),
            "allowCredentials": [],
        ]
        return options.serialized()
    }

    /// `timeoutSeconds` × 1000.
    private static func timeout(_ configuration: PasskeyConfiguration) -> JSONValue {
        .integer(Int64(configuration.timeoutSeconds) * 1000)
    }
}
