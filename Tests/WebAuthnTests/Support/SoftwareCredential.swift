import CBOR
import Cryptography
import StrictJSON
import WebAuthn

/// A credential made in Swift for the parser and verifier tests (the vectors come from Python code nobody here
/// wrote: `webauthn-vectors.json`): a P-256 or Ed25519 key, its COSE form, and the bytes of both ceremonies.
struct SoftwareCredential {
    let key: AsymmetricKey
    let algorithm: COSEAlgorithm
    let credentialID: [UInt8]

    static let rpID = "example.com"
    static let origin = "https://example.com"

    init(_ algorithm: COSEAlgorithm = .es256, credentialID: [UInt8] = Array(0..<16)) throws {
        self.algorithm = algorithm
        self.credentialID = credentialID
        key = try AsymmetricKey.generate(algorithm == .edDSA ? .ed25519 : .ecdsaP256SHA256)
    }

    /// The COSE_Key bytes of the public key.
    func coseKey() throws -> [UInt8] {
        switch try key.publicComponents() {
        case .p256(let x, let y):
            Self.cose(kty: 2, alg: -7, crv: 1, x: x, y: y)
        case .ed25519(let x):
            Self.cose(kty: 1, alg: -8, crv: 6, x: x)
        case .rsa:
            preconditionFailure("no RSA signing here")
        }
    }

    /// A COSE_Key from its members (any combination, for malformed keys too).
    static func cose(kty: Int, alg: Int?, crv: Int?, x: [UInt8], y: [UInt8]? = nil) -> [UInt8] {
        var pairs: [(CBORValue, CBORValue)] = [(CBORValue(1), CBORValue(kty))]
        if let alg { pairs.append((CBORValue(3), CBORValue(alg))) }
        if let crv { pairs.append((CBORValue(-1), CBORValue(crv))) }
        pairs.append((CBORValue(-2), .bytes(x)))
        if let y { pairs.append((CBORValue(-3), .bytes(y))) }
        return TestCBOR.encode(TestCBOR.map(pairs))
    }

    /// Authenticator data: `rpIdHash ‖ flags ‖ counter [‖ AAGUID ‖ length ‖ id ‖ key] [‖ extensions]`.
    static func authenticatorData(
        rpID: String = rpID, flags: UInt8, signCount: UInt32 = 0, attested: (id: [UInt8], key: [UInt8])? = nil,
        extensions: [UInt8]? = nil
    ) throws -> [UInt8] {
        var bytes = try SHA256.hash(Array(rpID.utf8))
        bytes.append(flags | (attested == nil ? 0 : 0x40) | (extensions == nil ? 0 : 0x80))
        bytes += TestCBOR.bigEndian(UInt64(signCount), count: 4)
        if let attested {
            bytes += [UInt8](repeating: 0xAA, count: 16)
            bytes += TestCBOR.bigEndian(UInt64(attested.id.count), count: 2) + attested.id + attested.key
        }
        if let extensions { bytes += extensions }
        return bytes
    }

    /// `clientDataJSON` with `members` after `type`, `challenge` and `origin`.
    static func clientData(
        type: String, challenge: [UInt8], origin: String = origin, members: JSONObject = [:]
    ) -> [UInt8] {
        var object: JSONObject = [
            "type": .string(type), "challenge": .string(Base64URL.encode(challenge)), "origin": .string(origin),
        ]
        for member in members { object[member.name] = member.value }
        return object.serialized()
    }

    /// A `none` attestation object around `authenticatorData`.
    static func attestationObject(_ authenticatorData: [UInt8], format: String = "none") -> [UInt8] {
        TestCBOR.encode(
            TestCBOR.map([
                (.text("fmt"), .text(format)), (.text("attStmt"), .map([])),
                (.text("authData"), .bytes(authenticatorData)),
            ]))
    }

    /// A registration's `RegistrationResponseJSON` (UP, UV, BE, BS by default) for `challenge`.
    func registrationJSON(
        challenge: [UInt8], flags: UInt8 = 0x1D, origin: String = origin, signCount: UInt32 = 0
    ) throws -> JSONValue {
        let data = try Self.authenticatorData(
            flags: flags, signCount: signCount, attested: (credentialID, try coseKey()))
        let clientData = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        return Self.credentialJSON(
            id: credentialID,
            response: [
                "clientDataJSON": .string(Base64URL.encode(clientData)),
                "attestationObject": .string(Base64URL.encode(Self.attestationObject(data))),
                "transports": ["internal", "hybrid"],
            ])
    }

    /// A registration read back through ``RegistrationCredential/init(json:)``.
    func registration(challenge: [UInt8], flags: UInt8 = 0x1D) throws -> RegistrationCredential {
        try RegistrationCredential(json: registrationJSON(challenge: challenge, flags: flags))
    }

    /// An assertion's `AuthenticationResponseJSON` (UP, UV, BE, BS by default) for `challenge`, signed.
    func assertionJSON(
        challenge: [UInt8], flags: UInt8 = 0x1D, signCount: UInt32 = 0, userHandle: [UInt8]?
    ) throws -> JSONValue {
        let data = try Self.authenticatorData(flags: flags, signCount: signCount)
        let clientData = Self.clientData(type: "webauthn.get", challenge: challenge)
        let signature = try sign(data + (try SHA256.hash(clientData)))
        var response: JSONObject = [
            "clientDataJSON": .string(Base64URL.encode(clientData)),
            "authenticatorData": .string(Base64URL.encode(data)), "signature": .string(Base64URL.encode(signature)),
        ]
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        return Self.credentialJSON(id: credentialID, response: response)
    }

    /// An assertion read back through ``AuthenticationCredential/init(json:)``.
    func assertion(
        challenge: [UInt8], flags: UInt8 = 0x1D, signCount: UInt32 = 0, userHandle: [UInt8]?
    ) throws -> AuthenticationCredential {
        try AuthenticationCredential(
            json: assertionJSON(challenge: challenge, flags: flags, signCount: signCount, userHandle: userHandle))
    }

    /// `{"id", "rawId", "type": "public-key", "response"}`.
    static func credentialJSON(id: [UInt8], response: JSONObject) -> JSONValue {
        [
            "id": .string(Base64URL.encode(id)), "rawId": .string(Base64URL.encode(id)), "type": "public-key",
            "response": .object(response),
        ]
    }

    /// ES256 as DER, EdDSA raw.
    func sign(_ message: [UInt8]) throws -> [UInt8] {
        let signature = try key.signature(for: message)
        guard algorithm == .es256 else { return signature }
        return Self.der(r: Array(signature[0..<32]), s: Array(signature[32..<64]))
    }

    /// `SEQUENCE { INTEGER r, INTEGER s }`, minimal.
    static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var trimmed = Array(bytes.drop { $0 == 0 })
            if trimmed.isEmpty || trimmed[0] & 0x80 != 0 { trimmed.insert(0, at: 0) }
            return [0x02, UInt8(trimmed.count)] + trimmed
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }
}
