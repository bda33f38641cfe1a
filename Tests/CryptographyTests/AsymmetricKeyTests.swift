import Cryptography
import Foundation
import Testing

@Suite struct AsymmetricKeyTests {
    static let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1MSJ9".utf8)

    @Test(
        "a generated key survives PKCS#8 PEM and raw components, and signs what its public half verifies",
        arguments: [AsymmetricKey.Algorithm.ecdsaP256SHA256, .ed25519])
    func roundTrips(algorithm: AsymmetricKey.Algorithm) throws {
        let key = try AsymmetricKey.generate(algorithm)
        let pem = try key.privateKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try AsymmetricKey(pem: pem, algorithm: algorithm)
        #expect(reloaded.isPrivate)
        #expect(try reloaded.publicComponents() == key.publicComponents())
        #expect(try reloaded.privateScalar() == key.privateScalar())
        let publicPEM = try key.publicKeyPEM()
        let publicKey = try AsymmetricKey(pem: publicPEM, algorithm: algorithm)
        #expect(!publicKey.isPrivate)
        #expect(try publicKey.publicKeyPEM() == publicPEM)
        let fromComponents: AsymmetricKey
        switch try key.publicComponents() {
        case .p256(let x, let y):
            fromComponents = try AsymmetricKey(p256X: x, y: y, d: key.privateScalar())
        case .ed25519(let x):
            fromComponents = try AsymmetricKey(ed25519X: x, d: key.privateScalar())
        case .rsa:
            Issue.record("no RSA keys are generated")
            return
        }
        for signer in [key, reloaded, fromComponents] {
            let signature = try signer.signature(for: Self.message)
            #expect(signature.count == 64)
            #expect(try publicKey.isValidSignature(signature, for: Self.message))
            #expect(try !publicKey.isValidSignature(signature, for: Self.message + [0]))
        }
        #expect(throws: CryptographyError.invalidKey(.notPrivate)) { try publicKey.signature(for: Self.message) }
        #expect(throws: CryptographyError.invalidKey(.notPrivate)) { try publicKey.privateKeyPEM() }
    }

    @Test("loads SEC1 EC PRIVATE KEY (after its EC PARAMETERS block) and the matching SPKI public key")
    func sec1() throws {
        let key = try AsymmetricKey(pem: PEMFixtures.sec1, algorithm: .ecdsaP256SHA256)
        let publicKey = try AsymmetricKey(pem: PEMFixtures.sec1Public, algorithm: .ecdsaP256SHA256)
        #expect(key.isPrivate)
        #expect(try key.publicComponents() == publicKey.publicComponents())
        #expect(try key.publicKeyPEM() == PEMFixtures.sec1Public)
        #expect(try publicKey.isValidSignature(key.signature(for: Self.message), for: Self.message))
        // Re-exported as PKCS#8, it loads to the same key.
        let pkcs8 = try AsymmetricKey(pem: key.privateKeyPEM(), algorithm: .ecdsaP256SHA256)
        #expect(try pkcs8.privateScalar() == key.privateScalar())
    }

    @Test("refuses keys of the wrong kind, curve or size, encrypted keys and malformed PEM")
    func refusals() {
        #expect(throws: CryptographyError.invalidKey(.weakRSAKey)) {
            try AsymmetricKey(pem: PEMFixtures.rsa1024Public, algorithm: .rsaPKCS1SHA256)
        }
        #expect(throws: CryptographyError.invalidKey(.wrongKeyType)) {
            try AsymmetricKey(pem: PEMFixtures.p384Public, algorithm: .ecdsaP256SHA256)
        }
        #expect(throws: CryptographyError.invalidKey(.wrongKeyType)) {
            try AsymmetricKey(pem: PEMFixtures.sec1Public, algorithm: .ed25519)
        }
        #expect(throws: CryptographyError.invalidKey(.unsupportedPEM)) {
            try AsymmetricKey(pem: PEMFixtures.encrypted, algorithm: .ed25519)
        }
        #expect(throws: CryptographyError.invalidKey(.unsupportedPEM)) {
            try AsymmetricKey(pem: PEMFixtures.sec1Public + PEMFixtures.sec1Public, algorithm: .ecdsaP256SHA256)
        }
        #expect(throws: CryptographyError.invalidKey(.malformedPEM)) {
            try AsymmetricKey(pem: "not a key", algorithm: .ecdsaP256SHA256)
        }
        let truncated = PEMFixtures.sec1Public.replacingOccurrences(of: "514Bdc0", with: "")
        #expect(throws: CryptographyError.invalidKey(.malformedPEM)) {
            try AsymmetricKey(pem: truncated, algorithm: .ecdsaP256SHA256)
        }
        // RSA modulus of 1024 bits from raw components (n = 2^1023 + 1 is odd and has the right size).
        let modulus = [0x80] + [UInt8](repeating: 0, count: 126) + [0x01]
        #expect(throws: CryptographyError.invalidKey(.weakRSAKey)) {
            try AsymmetricKey(rsaModulus: modulus, exponent: [0x01, 0x00, 0x01])
        }
        #expect(throws: CryptographyError.invalidKey(.unsupportedOperation)) {
            try AsymmetricKey.generate(.rsaPKCS1SHA256)
        }
    }

    @Test("explicit curve parameters load only when they are exactly P-256's (OpenSSL names the group)")
    func explicitParameters() throws {
        let key = try AsymmetricKey(pem: PEMFixtures.explicitParametersPublic, algorithm: .ecdsaP256SHA256)
        #expect(!key.isPrivate)
        #expect(throws: CryptographyError.invalidKey(.wrongKeyType)) {
            try AsymmetricKey(pem: PEMFixtures.explicitParametersPublic, algorithm: .ed25519)
        }
    }

    @Test("an Ed25519 seed with someone else's public key is refused")
    func ed25519Mismatch() throws {
        let a = try AsymmetricKey.generate(.ed25519)
        let b = try AsymmetricKey.generate(.ed25519)
        guard case .ed25519(let x) = try b.publicComponents() else { return }
        #expect(throws: CryptographyError.invalidKey(.mismatchedPublicKey)) {
            try AsymmetricKey(ed25519X: x, d: a.privateScalar())
        }
        #expect(throws: CryptographyError.invalidKey(.wrongComponentLength)) {
            try AsymmetricKey(ed25519X: Array(x.dropLast()))
        }
    }

    @Test(
        "descriptions and errors never contain private key bytes",
        arguments: [
            AsymmetricKey.Algorithm.ecdsaP256SHA256, .ed25519,
        ])
    func noSecretsInText(algorithm: AsymmetricKey.Algorithm) throws {
        let key = try AsymmetricKey.generate(algorithm)
        let scalar = try key.privateScalar()
        let pem = try key.privateKeyPEM()
        let body = pem.split(separator: "\n").dropFirst().dropLast().joined()
        let forms = [Base64URL.encode(scalar), Fixture.hex(scalar), String(body.prefix(40))]
        var texts = [key.description, String(describing: key), String(reflecting: key)]
        texts += CryptographyError.allCases.map(\.description)
        for text in texts {
            for form in forms { #expect(!text.contains(form)) }
        }
    }
}
