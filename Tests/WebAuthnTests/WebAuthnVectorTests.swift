import Cryptography
import StrictJSON
import Testing
import WebAuthn

@Suite("WebAuthn vectors (soft_authenticator, checked by py_webauthn)")
struct WebAuthnVectorTests {
    @Test("the vector file reads, and its failures name every PasskeyCheckFailure")
    func coversEveryFailure() throws {
        let file = try WebAuthnVector.load()
        #expect(file.vectors.count > 40)
        let reasons = Set(
            file.vectors.compactMap { vector -> PasskeyCheckFailure? in
                if case .failed(let reason) = vector.expected { return reason }
                return nil
            })
        #expect(reasons == Set(PasskeyCheckFailure.allCases))
        #expect(file.vectors.contains { $0.expected == .malformed })
        #expect(file.vectors.filter { $0.expected == .accepted }.count >= 10)
    }

    @Test("every vector gets the answer it was made for", arguments: WebAuthnVector.all)
    func verdict(vector: WebAuthnVector) throws {
        let file = try #require(WebAuthnVector.file)
        let verifier = try RelyingPartyVerifier(configuration: file.configuration)
        let (outcome, registered, authenticated) = vector.run(verifier)
        #expect(outcome == vector.expected)
        guard let expect = vector.expect else { return }
        if let registered {
            #expect(Base64URL.encode(registered.credentialID) == expect["credentialId"]?.stringValue)
            #expect(Base64URL.encode(registered.publicKey) == expect["publicKey"]?.stringValue)
            #expect(Int64(registered.algorithm.rawValue) == expect["algorithm"]?.integerValue)
            #expect(Int64(registered.signCount) == expect["signCount"]?.integerValue)
            #expect(registered.backupEligible == expect["backupEligible"]?.boolValue)
            #expect(registered.backedUp == expect["backedUp"]?.boolValue)
            #expect(registered.userVerified == expect["userVerified"]?.boolValue)
            #expect(registered.attestationFormat == expect["attestationFormat"]?.stringValue)
            let aaguid = expect["aaguid"]?.stringValue?.filter { $0 != "-" }
            #expect(Hex.encode(registered.aaguid) == aaguid)
        }
        if let authenticated {
            #expect(Int64(authenticated.signCount) == expect["signCount"]?.integerValue)
            #expect(authenticated.userVerified == expect["userVerified"]?.boolValue)
            #expect(authenticated.backedUp == expect["backedUp"]?.boolValue)
        }
    }
}
