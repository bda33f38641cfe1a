import Cryptography
import StrictJSON
import Testing
import WebAuthn

@Suite("RelyingPartyVerifier")
struct RelyingPartyVerifierTests {
    @Test(
        "registers then signs in with a P-256 and an Ed25519 credential made in Swift",
        arguments: [
            COSEAlgorithm.es256, .edDSA,
        ])
    func roundTrip(algorithm: COSEAlgorithm) throws {
        let verifier = try Fixtures.verifier()
        let authenticator = try SoftwareCredential(algorithm)
        let registration = try authenticator.registration(challenge: Fixtures.challenge)
        let registered = try verifier.verifyRegistration(
            registration, clientData: try CollectedClientData(registration.clientDataJSON),
            expectedChallenge: Fixtures.challenge)
        #expect(registered.credentialID == authenticator.credentialID)
        #expect(registered.algorithm == algorithm)
        #expect(registered.backupEligible && registered.backedUp && registered.userVerified)
        #expect(registered.attestationFormat == "none")
        #expect(registered.aaguid == [UInt8](repeating: 0xAA, count: 16))

        let assertion = try authenticator.assertion(
            challenge: Fixtures.challenge, signCount: 5, userHandle: Fixtures.userHandle)
        let result = try verifier.verifyAuthentication(
            assertion, clientData: try CollectedClientData(assertion.clientDataJSON),
            expectedChallenge: Fixtures.challenge, publicKey: try COSEKey(bytes: registered.publicKey),
            storedSignCount: registered.signCount, expectedUserHandle: Fixtures.userHandle)
        #expect(result == VerifiedAuthentication(signCount: 5, userVerified: true, backedUp: true))
    }
}
