import AuthAPI
import Foundation
import Testing
import TokenServiceTesting

/// The passkey ceremonies that succeed, end to end on a real server, with credentials from the software
/// authenticator that py_webauthn accepted first: sign-up then sign-in, a passkey added to a password account,
/// synced passkeys, any attestation format, the Android origin, and the options' shape.
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized, .sharedPasskeyServer())
struct PasskeyCeremonyTests {
    @Test(
        "sign-up with a passkey makes a passwordless account that the passkey then signs in to",
        arguments: [
            PasskeyAuthenticator.Algorithm.es256, .edDSA, .rs256,
        ])
    func signUpThenSignIn(algorithm: PasskeyAuthenticator.Algorithm) async throws {
        let harness = try PasskeyHarness.shared()
        let signUps = harness.ceremonies("signup", "none")
        let signIns = harness.ceremonies("authentication", "none")
        let account = try await harness.signUp(knobs: .with(\.algorithm, algorithm))
        #expect(harness.ceremonies("signup", "none") == signUps + 1)
        let me = try await harness.server.request(
            "GET", "/auth/me", headers: ["Authorization": "Bearer \(account.accessToken)"])
        #expect(me.status == 200, "\(me.text)")
        #expect(try me.object()["email"] == nil || (try me.object()["email"] is NSNull))
        // No password: a password login for the account is impossible, and the passkey is listed unused.
        let before = try await harness.list(account.accessToken)
        #expect(before.count == 1)
        #expect(before.first?["id"] as? String == account.credentialID)
        #expect(before.first?["name"] as? String == "Passkey")
        #expect(before.first?["lastUsedAt"] is NSNull)
        #expect(before.first?["deviceType"] as? String == "singleDevice")
        #expect(before.first?["backedUp"] as? Bool == false)

        let signIn = try await harness.signIn(account.credentialID)
        #expect(signIn.status == 200, "\(signIn.text)")
        let body = try signIn.object()
        #expect((body["user"] as? [String: Any])?["id"] as? String == account.userID)
        #expect(body["accessToken"] is String && body["refreshToken"] is String)
        #expect(harness.ceremonies("authentication", "none") == signIns + 1)
        let after = try await harness.list(account.accessToken)
        #expect(after.first?["lastUsedAt"] is String, "lastUsedAt after a sign-in: \(after)")
        // A second sign-in (the counter moves on) works too.
        #expect(try await harness.signIn(account.credentialID).status == 200)
    }

    @Test("a passkey added to a password account signs in to that account; the password still works")
    func passkeyOnPasswordAccount() async throws {
        let harness = try PasskeyHarness.shared()
        let registrations = harness.ceremonies("registration", "none")
        let login = try await harness.server.signUp()
        let added = try await harness.addPasskey(login.accessToken, name: "  Work laptop  ")
        #expect(harness.ceremonies("registration", "none") == registrations + 1)
        #expect(added.passkey["name"] as? String == "Work laptop")
        #expect(added.passkey["lastUsedAt"] is NSNull)
        #expect(added.passkey["createdAt"] is String)
        let answer = try await harness.signIn(added.credentialID)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(((try answer.object())["user"] as? [String: Any])?["id"] as? String == login.userID)
        _ = try await harness.server.logIn(email: login.email)
        // The answers decode as the AuthAPI wire types.
        let listed = try await harness.server.request("GET", "/auth/passkeys", headers: login.bearer)
        let list = try JSONDecoder().decode(PasskeyListResponse.self, from: listed.body)
        #expect(list.passkeys.map(\.id) == [added.credentialID])
        #expect(list.passkeys.first?.lastUsedAt != nil)
    }

    @Test("a synced passkey (BE and BS set, counters always 0) is multi-device, backed up, and signs in again")
    func syncedPasskey() async throws {
        let harness = try PasskeyHarness.shared()
        let device = try await harness.authenticator.newDevice(
            counterMode: .zero, backupEligible: true, backedUp: true)
        let account = try await harness.signUp(device: device)
        let listed = try await harness.list(account.accessToken)
        #expect(listed.first?["deviceType"] as? String == "multiDevice")
        #expect(listed.first?["backedUp"] as? Bool == true)
        for _ in 0..<2 {
            let answer = try await harness.signIn(account.credentialID, device: device)
            #expect(answer.status == 200, "\(answer.text)")
        }
        // BS follows the last ceremony.
        let cleared = try await harness.signIn(account.credentialID, device: device, knobs: .with(\.backedUp, false))
        #expect(cleared.status == 200, "\(cleared.text)")
        #expect(try await harness.list(account.accessToken).first?["backedUp"] as? Bool == false)
    }

    @Test("an attestation in another format (packed self-attestation) is accepted as none")
    func packedAttestation() async throws {
        let harness = try PasskeyHarness.shared()
        for algorithm in [PasskeyAuthenticator.Algorithm.es256, .edDSA] {
            var knobs = PasskeyAuthenticator.Knobs.with(\.packedAttestation, true)
            knobs.algorithm = algorithm
            let account = try await harness.signUp(knobs: knobs)
            #expect(try await harness.signIn(account.credentialID).status == 200)
        }
    }

    @Test("an Android app signs up and in from its apk-key-hash origin, with androidPackageName in the client data")
    func androidOrigin() async throws {
        let harness = try PasskeyHarness.shared()
        let origin = try await harness.androidOrigin()
        #expect(origin.hasPrefix("android:apk-key-hash:"))
        let options = try await harness.signUpOptions()
        let made = try await harness.authenticator.create(
            options, origin: origin, knobs: .with(\.androidPackageName, PasskeyHarness.androidPackage))
        #expect(made.pyWebauthnAccepted)
        let signUp = try await harness.post("/auth/passkeys/signup", json: made.body())
        #expect(signUp.status == 200, "\(signUp.text)")
        let assertion = try await harness.assertion(
            made.credentialID, origin: origin, knobs: .with(\.androidPackageName, PasskeyHarness.androidPackage))
        let signIn = try await harness.post("/auth/passkeys/authentication", json: assertion.body())
        #expect(signIn.status == 200, "\(signIn.text)")
    }

    @Test("sign-up options: rp, a random user handle (not the email), the three algorithms, discoverable, UV, none")
    func signUpOptionsShape() async throws {
        let harness = try PasskeyHarness.shared()
        let email = "options-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let text = try await harness.signUpOptions(email: email)
        let options = try JSONDecoder().decode(PasskeyCreationOptions.self, from: Data(text.utf8))
        #expect(try WireBase64URL.decode(options.challenge).count == 32)
        #expect(options.rp == .init(id: "example.com", name: "Example"))
        let handle = try WireBase64URL.decode(options.user.id)
        #expect((1...64).contains(handle.count))
        #expect(!options.user.id.contains(email) && options.user.name == email && options.user.displayName == email)
        #expect(options.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
        #expect(options.pubKeyCredParams.allSatisfy { $0.type == "public-key" })
        #expect(options.excludeCredentials.isEmpty)
        #expect(options.authenticatorSelection.residentKey == "required")
        #expect(options.authenticatorSelection.userVerification == "required")
        #expect(options.attestation == "none")
        #expect(options.timeout == 300_000)
        // Without an email: "<rpName> account"; every sign-up gets a new handle.
        let anonymous = try JSONDecoder().decode(
            PasskeyCreationOptions.self, from: Data(try await harness.signUpOptions().utf8))
        #expect(anonymous.user.name == "Example account" && anonymous.user.displayName == "Example account")
        #expect(anonymous.user.id != options.user.id && anonymous.challenge != options.challenge)
    }

    @Test("an account keeps one user handle; its registration options exclude its passkeys with their transports")
    func registrationOptionsShape() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let first = try await harness.registrationOptions(login.accessToken)
        let options = try JSONDecoder().decode(PasskeyCreationOptions.self, from: Data(first.utf8))
        #expect(options.user.name == login.email.lowercased())  // the server stores emails normalised
        #expect(!options.user.id.contains(login.userID))
        #expect(options.excludeCredentials.isEmpty)
        let added = try await harness.addPasskey(login.accessToken)
        let second = try JSONDecoder().decode(
            PasskeyCreationOptions.self, from: Data(try await harness.registrationOptions(login.accessToken).utf8))
        #expect(second.user.id == options.user.id)
        #expect(second.challenge != options.challenge)
        #expect(
            second.excludeCredentials == [.init(id: added.credentialID, transports: ["hybrid", "internal"])])
        // The handle the account's passkey returns at sign-in is that same handle.
        let assertion = try await harness.assertion(added.credentialID).assertion()
        #expect(assertion.response.userHandle == options.user.id)
    }

    @Test("authentication options: a challenge, the RP id, UV required, 300000 ms, no allowCredentials")
    func requestOptionsShape() async throws {
        let harness = try PasskeyHarness.shared()
        let text = try await harness.authenticationOptions()
        let options = try JSONDecoder().decode(PasskeyRequestOptions.self, from: Data(text.utf8))
        #expect(try WireBase64URL.decode(options.challenge).count == 32)
        #expect(options.rpId == "example.com")
        #expect(options.userVerification == "required")
        #expect(options.timeout == 300_000)
        #expect(options.allowCredentials.isEmpty)
        let empty = try await harness.post("/auth/passkeys/authentication/options", json: nil)
        #expect(empty.status == 200, "no body: \(empty.text)")
    }

    @Test("sign-up options: 409 email_taken for an email in use, 400 for an invalid one")
    func signUpOptionsEmail() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let taken = try await harness.post("/auth/passkeys/signup/options", json: #"{"email":"\#(login.email)"}"#)
        #expect(taken.status == 409 && taken.errorCode == "email_taken", "\(taken.text)")
        let invalid = try await harness.post("/auth/passkeys/signup/options", json: #"{"email":"not an email"}"#)
        PasskeyHarness.expectMalformed(invalid, "invalid email")
    }

    @Test("a sign-up whose email was taken after its options is 409 email_taken")
    func signUpEmailTakenMeanwhile() async throws {
        let harness = try PasskeyHarness.shared()
        let email = "race-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let options = try await harness.signUpOptions(email: email)
        _ = try await harness.server.signUp(email: email)
        let made = try await harness.authenticator.create(options, origin: PasskeyHarness.origin)
        let answer = try await harness.post("/auth/passkeys/signup", json: made.body())
        #expect(answer.status == 409 && answer.errorCode == "email_taken", "\(answer.text)")
    }
}

/// Base64url without padding, decoded independently of the server's code.
enum WireBase64URL {
    struct Invalid: Error {}

    static func decode(_ text: String) throws -> [UInt8] {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        guard let data = Data(base64Encoded: standard) else { throw Invalid() }
        return Array(data)
    }
}
