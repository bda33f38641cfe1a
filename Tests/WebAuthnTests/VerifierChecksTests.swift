import Cryptography
import StrictJSON
import Testing
import WebAuthn

/// The checks the vectors cannot reach alone: the verifier's own guards, `preferred` user verification, and a
/// stored BE flag.
@Suite("RelyingPartyVerifier checks")
struct VerifierChecksTests {
    @Test("passkeys off: no verifier")
    func off() {
        #expect(throws: PasskeyConfigurationError.self) {
            try RelyingPartyVerifier(configuration: PasskeyConfiguration())
        }
    }

    @Test("user verification preferred accepts an assertion without UV; required refuses it")
    func preferred() throws {
        let credential = try SoftwareCredential(.edDSA)
        let assertion = try credential.assertion(
            challenge: Fixtures.challenge, flags: 0x01, userHandle: Fixtures.userHandle)
        let key = try COSEKey(bytes: try credential.coseKey())
        for (policy, passes) in [(PasskeyConfiguration.UserVerification.preferred, true), (.required, false)] {
            let verifier = try Fixtures.verifier(userVerification: policy)
            let result = Result { () throws(WebAuthnError) in
                try verifier.verifyAuthentication(
                    assertion, clientData: try CollectedClientData(assertion.clientDataJSON),
                    expectedChallenge: Fixtures.challenge, publicKey: key, storedSignCount: 0,
                    expectedUserHandle: Fixtures.userHandle)
            }
            if passes {
                #expect(try result.get().userVerified == false)
            } else {
                #expect(throws: WebAuthnError.failed(.userVerification)) { try result.get() }
            }
        }
    }

    @Test("client data parsed from other bytes than the credential's is malformed")
    func foreignClientData() throws {
        let credential = try SoftwareCredential()
        let registration = try credential.registration(challenge: Fixtures.challenge)
        var other = try CollectedClientData(registration.clientDataJSON)
        other.origin = "https://example.com/"
        #expect(throws: WebAuthnError.malformed("clientData is not the credential's clientDataJSON")) {
            try Fixtures.verifier().verifyRegistration(
                registration, clientData: other, expectedChallenge: Fixtures.challenge)
        }
    }

    @Test("the counter rule: 0 and 0 pass, a greater counter passes, an equal non-zero one is clone_suspected")
    func counters() throws {
        let credential = try SoftwareCredential()
        let key = try COSEKey(bytes: try credential.coseKey())
        let verifier = try Fixtures.verifier()
        for (stored, new, passes) in [(0, 0, true), (4, 5, true), (0, 1, true), (5, 5, false), (1, 0, false)] {
            let assertion = try credential.assertion(
                challenge: Fixtures.challenge, signCount: UInt32(new), userHandle: Fixtures.userHandle)
            let outcome = Result { () throws(WebAuthnError) in
                try verifier.verifyAuthentication(
                    assertion, clientData: try CollectedClientData(assertion.clientDataJSON),
                    expectedChallenge: Fixtures.challenge, publicKey: key, storedSignCount: UInt32(stored),
                    expectedUserHandle: Fixtures.userHandle, storedBackupEligible: true)
            }
            if passes {
                #expect(try outcome.get().signCount == UInt32(new))
            } else {
                #expect(throws: WebAuthnError.failed(.cloneSuspected)) { try outcome.get() }
            }
        }
    }

    @Test("an empty credential id fails credential_id; a stored BE that changed fails backup_state")
    func emptyIDAndBackupEligibility() throws {
        let empty = try SoftwareCredential(credentialID: [])
        let registration = try empty.registration(challenge: Fixtures.challenge)
        #expect(throws: WebAuthnError.failed(.credentialID)) {
            try Fixtures.verifier().verifyRegistration(
                registration, clientData: try CollectedClientData(registration.clientDataJSON),
                expectedChallenge: Fixtures.challenge)
        }
        let credential = try SoftwareCredential()
        let assertion = try credential.assertion(challenge: Fixtures.challenge, userHandle: Fixtures.userHandle)
        #expect(throws: WebAuthnError.failed(.backupState)) {
            try Fixtures.verifier().verifyAuthentication(
                assertion, clientData: try CollectedClientData(assertion.clientDataJSON),
                expectedChallenge: Fixtures.challenge, publicKey: try COSEKey(bytes: try credential.coseKey()),
                storedSignCount: 0, expectedUserHandle: Fixtures.userHandle, storedBackupEligible: false)
        }
    }
}
