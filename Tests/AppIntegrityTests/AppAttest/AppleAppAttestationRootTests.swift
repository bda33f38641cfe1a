import AppIntegrity
import Cryptography
import Testing

@Suite("Apple App Attestation Root CA") struct AppleAppAttestationRootTests {
    @Test("the built-in root parses, is self-signed P-384 with Apple's subject, valid 2020-03-18 to 2045-03-15")
    func builtInRoot() throws {
        let root = try X509Certificate(pem: AppleAppAttestationRoot.pem)
        #expect(
            Hex.encode(try SHA256.hash(root.derBytes))
                == "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932")
        #expect(root.isSelfSigned)
        #expect(root.publicKeyCurveName == "secp384r1")
        #expect(root.subject == "ST=California,O=Apple Inc.,CN=Apple App Attestation Root CA")
        #expect(root.issuer == root.subject)
        #expect(root.notBefore == 1_584_556_373)  // 2020-03-18T18:32:53Z
        #expect(root.notAfter == 2_373_148_800)  // 2045-03-15T00:00:00Z
        #expect(throws: CryptographyError.invalidKey(.wrongKeyType)) { try root.p256PublicPoint() }
        #expect(
            try AppAttestVerifier(appIDs: ["ABCDE12345.com.example.app"], allowDevelopment: false).appIDs.count == 1)
    }
}
