import Foundation
import Synchronization
import Testing
import TokenService
import TokenServiceTesting

/// Every check the server makes, failed on purpose: `401 invalid_credential` with the one body, the reason counted
/// in `tokenvend_passkey_ceremonies_total`; and the malformed inputs that are `400 invalid_request`. Each broken
/// credential is also shown to py_webauthn, and the cases say whether it refuses it too.
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized, .sharedPasskeyServer())
struct PasskeyRefusalTests {
    /// One way to break a ceremony: the knobs (or the origin), the metric reason, whether py_webauthn refuses it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let knobs: PasskeyAuthenticator.Knobs
        var origin = PasskeyHarness.origin
        let reason: String
        let pyWebauthnRefuses: Bool

        var testDescription: String { name }
    }

    static let otherChallenge = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"

    /// The checks both ceremonies make the same way.
    static let sharedCases: [Case] = [
        Case(
            name: "a challenge never issued", knobs: .with(\.challenge, otherChallenge), reason: "challenge",
            pyWebauthnRefuses: true),
        Case(
            name: "a wrong origin", knobs: .init(), origin: "https://evil.example", reason: "origin",
            pyWebauthnRefuses: true),
        Case(
            name: "crossOrigin true", knobs: .with(\.crossOrigin, true), reason: "cross_origin",
            pyWebauthnRefuses: false),
        Case(name: "a wrong rpId", knobs: .with(\.rpID, "evil.example"), reason: "rp_id", pyWebauthnRefuses: true),
        Case(name: "UP clear", knobs: .with(\.userPresent, false), reason: "user_presence", pyWebauthnRefuses: true),
        Case(
            name: "UV clear while required", knobs: .with(\.userVerified, false), reason: "user_verification",
            pyWebauthnRefuses: true),
        Case(name: "BS without BE", knobs: bsWithoutBE, reason: "backup_state", pyWebauthnRefuses: true),
    ]

    static let registrationCases: [Case] =
        [
            Case(
                name: "type webauthn.get", knobs: .with(\.type, "webauthn.get"), reason: "type", pyWebauthnRefuses: true
            ),
            Case(
                name: "a topOrigin", knobs: .with(\.topOrigin, "https://evil.example"), reason: "cross_origin",
                pyWebauthnRefuses: false),
            Case(
                name: "no attested credential data", knobs: .with(\.noAttestedData, true),
                reason: "attested_credential",
                pyWebauthnRefuses: true),
            Case(
                name: "ES384, not allowed", knobs: .with(\.algorithm, .es384), reason: "algorithm",
                pyWebauthnRefuses: true),
            Case(
                name: "a COSE alg disagreeing with the key", knobs: .with(\.coseAlgorithm, -8), reason: "algorithm",
                pyWebauthnRefuses: false),
            Case(
                name: "a P-256 point off the curve", knobs: .with(\.offCurve, true), reason: "public_key",
                pyWebauthnRefuses: false),
            Case(name: "a 31-byte Ed25519 key", knobs: shortEd25519, reason: "public_key", pyWebauthnRefuses: false),
            Case(name: "RSA 1024", knobs: rsa1024, reason: "public_key", pyWebauthnRefuses: false),
            Case(
                name: "a credential id of 1024 bytes", knobs: .with(\.credentialIDLength, 1024),
                reason: "credential_id",
                pyWebauthnRefuses: false),
            Case(
                name: "id and rawId disagreeing", knobs: .with(\.idMismatch, true), reason: "credential_mismatch",
                pyWebauthnRefuses: true),
        ] + sharedCases

    static var bsWithoutBE: PasskeyAuthenticator.Knobs {
        var knobs = PasskeyAuthenticator.Knobs.with(\.backedUp, true)
        knobs.backupEligible = false
        return knobs
    }

    static var shortEd25519: PasskeyAuthenticator.Knobs {
        var knobs = PasskeyAuthenticator.Knobs.with(\.algorithm, .edDSA)
        knobs.shortEd25519 = true
        return knobs
    }

    static var rsa1024: PasskeyAuthenticator.Knobs {
        var knobs = PasskeyAuthenticator.Knobs.with(\.algorithm, .rs256)
        knobs.rsaBits = 1024
        return knobs
    }

    @Test(
        "a registration failing one check is 401 invalid_credential, counted under its reason",
        arguments: registrationCases)
    func registrationCheck(_ broken: Case) async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let made = try await harness.authenticator.create(
            try await harness.registrationOptions(login.accessToken), origin: broken.origin, knobs: broken.knobs,
            expectedOrigins: [PasskeyHarness.origin])
        #expect(!made.expectedValid)
        #expect(!made.pyWebauthnAccepted == broken.pyWebauthnRefuses, "py_webauthn: \(made.pyWebauthnDetail)")
        let before = harness.ceremonies("registration", broken.reason)
        let answer = try await harness.post("/auth/passkeys/registration", token: login.accessToken, json: made.body())
        PasskeyHarness.expectRefusal(answer, broken.name)
        #expect(harness.ceremonies("registration", broken.reason) == before + 1, "reason \(broken.reason)")
        #expect(try await harness.list(login.accessToken).isEmpty)
        Self.expectOneBody(answer)
    }

    @Test("a sign-up failing a check is refused too, and makes no account")
    func signUpCheck() async throws {
        let harness = try PasskeyHarness.shared()
        let before = harness.ceremonies("signup", "user_verification")
        let made = try await harness.authenticator.create(
            try await harness.signUpOptions(), origin: PasskeyHarness.origin, knobs: .with(\.userVerified, false))
        let answer = try await harness.post("/auth/passkeys/signup", json: made.body())
        PasskeyHarness.expectRefusal(answer, "sign-up without UV")
        #expect(harness.ceremonies("signup", "user_verification") == before + 1)
        // No account holds the credential: an assertion by it is an unknown credential.
        let unknown = harness.ceremonies("authentication", "unknown_credential")
        PasskeyHarness.expectRefusal(try await harness.signIn(made.credentialID), "sign-in after a refused sign-up")
        #expect(harness.ceremonies("authentication", "unknown_credential") == unknown + 1)
    }

    static let authenticationCases: [Case] =
        [
            Case(
                name: "type webauthn.create", knobs: .with(\.type, "webauthn.create"), reason: "type",
                pyWebauthnRefuses: true),
            Case(
                name: "a tampered signature", knobs: .with(\.tamperSignature, true), reason: "signature",
                pyWebauthnRefuses: true),
            Case(
                name: "no userHandle", knobs: .with(\.omitUserHandle, true), reason: "user_handle",
                pyWebauthnRefuses: false),
            Case(
                name: "id and rawId disagreeing", knobs: .with(\.idMismatch, true), reason: "credential_mismatch",
                pyWebauthnRefuses: true),
        ] + sharedCases

    @Test(
        "an assertion failing one check is 401 invalid_credential, counted under its reason",
        arguments: authenticationCases)
    func authenticationCheck(_ broken: Case) async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        let made = try await harness.authenticator.get(
            try await harness.authenticationOptions(), origin: broken.origin, credentialID: account.credentialID,
            knobs: broken.knobs, expectedOrigins: [PasskeyHarness.origin])
        #expect(!made.expectedValid)
        #expect(!made.pyWebauthnAccepted == broken.pyWebauthnRefuses, "py_webauthn: \(made.pyWebauthnDetail)")
        let before = harness.ceremonies("authentication", broken.reason)
        let answer = try await harness.post("/auth/passkeys/authentication", json: made.body())
        PasskeyHarness.expectRefusal(answer, broken.name)
        #expect(harness.ceremonies("authentication", broken.reason) == before + 1, "reason \(broken.reason)")
        Self.expectOneBody(answer)
        // The passkey itself is fine: a good assertion still signs in.
        #expect(try await harness.signIn(account.credentialID).status == 200)
    }

    @Test("an assertion whose BE differs from the registered one is refused (backup_state); py_webauthn accepts it")
    func backupEligibilityFlipped() async throws {
        let harness = try PasskeyHarness.shared()
        // The default device makes single-device passkeys: BE clear at registration.
        let account = try await harness.signUp()
        let before = harness.ceremonies("authentication", "backup_state")
        let made = try await harness.assertion(account.credentialID, knobs: .with(\.backupEligible, true))
        #expect(made.pyWebauthnAccepted, "py_webauthn does not compare BE with the registration")
        let answer = try await harness.post("/auth/passkeys/authentication", json: made.body())
        PasskeyHarness.expectRefusal(answer, "BE set on a single-device passkey")
        #expect(harness.ceremonies("authentication", "backup_state") == before + 1)
        // The passkey itself is fine: an assertion with its own flags still signs in.
        #expect(try await harness.signIn(account.credentialID).status == 200)
    }

    @Test("an assertion carrying another account's userHandle is refused (user_handle)")
    func otherAccountsUserHandle() async throws {
        let harness = try PasskeyHarness.shared()
        let mine = try await harness.signUp()
        let other = try PasskeyHarness.userHandle(try await harness.signUpOptions())
        let before = harness.ceremonies("authentication", "user_handle")
        let answer = try await harness.signIn(mine.credentialID, knobs: .with(\.userHandle, other))
        PasskeyHarness.expectRefusal(answer, "another handle")
        #expect(harness.ceremonies("authentication", "user_handle") == before + 1)
        // Another real account's handle, from its own registration options.
        let victim = try await harness.server.signUp()
        let handle = try PasskeyHarness.userHandle(try await harness.registrationOptions(victim.accessToken))
        PasskeyHarness.expectRefusal(
            try await harness.signIn(mine.credentialID, knobs: .with(\.userHandle, handle)), "victim's handle")
        #expect(harness.ceremonies("authentication", "user_handle") == before + 2)
    }

    @Test("a sign counter that does not increase is refused as clone_suspected; zero counters stay allowed")
    func counterRegression() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        #expect(try await harness.signIn(account.credentialID, knobs: .with(\.counter, 5)).status == 200)
        let before = harness.ceremonies("authentication", "clone_suspected")
        for counter: UInt32 in [3, 5, 0] {
            let made = try await harness.assertion(account.credentialID, knobs: .with(\.counter, counter))
            #expect(!made.pyWebauthnAccepted, "py_webauthn refuses counter \(counter) after 5 too")
            let answer = try await harness.post("/auth/passkeys/authentication", json: made.body())
            PasskeyHarness.expectRefusal(answer, "counter \(counter) after 5")
        }
        #expect(harness.ceremonies("authentication", "clone_suspected") == before + 3)
        #expect(try await harness.signIn(account.credentialID, knobs: .with(\.counter, 6)).status == 200)
        // A synced passkey sends 0 every time: allowed while the stored counter is 0.
        let synced = try await harness.authenticator.newDevice(counterMode: .zero)
        let zero = try await harness.signUp(device: synced)
        for _ in 0..<2 { #expect(try await harness.signIn(zero.credentialID, device: synced).status == 200) }
    }

    @Test("a challenge is single use: a second registration, sign-up or sign-in with it is refused (challenge)")
    func replayedChallenge() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let options = try await harness.registrationOptions(login.accessToken)
        let first = try await harness.authenticator.create(options, origin: PasskeyHarness.origin)
        let again = try await harness.authenticator.create(options, origin: PasskeyHarness.origin)
        #expect(
            try await harness.post("/auth/passkeys/registration", token: login.accessToken, json: first.body()).status
                == 201)
        let registrations = harness.ceremonies("registration", "challenge")
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/registration", token: login.accessToken, json: again.body()),
            "registration replay")
        #expect(harness.ceremonies("registration", "challenge") == registrations + 1)

        let signUpOptions = try await harness.signUpOptions()
        let signUp = try await harness.authenticator.create(signUpOptions, origin: PasskeyHarness.origin)
        let signUpAgain = try await harness.authenticator.create(signUpOptions, origin: PasskeyHarness.origin)
        #expect(try await harness.post("/auth/passkeys/signup", json: signUp.body()).status == 200)
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/signup", json: signUpAgain.body()), "sign-up replay")

        let assertion = try await harness.assertion(first.credentialID)
        #expect(try await harness.post("/auth/passkeys/authentication", json: assertion.body()).status == 200)
        let signIns = harness.ceremonies("authentication", "challenge")
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/authentication", json: assertion.body()), "assertion replay")
        #expect(harness.ceremonies("authentication", "challenge") == signIns + 1)
    }

    @Test("a foreign challenge is refused: another account's, another ceremony's (challenge)")
    func foreignChallenge() async throws {
        let harness = try PasskeyHarness.shared()
        let mine = try await harness.server.signUp()
        let theirs = try await harness.server.signUp()
        let before = harness.ceremonies("registration", "challenge")
        // Another account's registration challenge.
        let theirOptions = try await harness.registrationOptions(theirs.accessToken)
        let stolen = try await harness.authenticator.create(theirOptions, origin: PasskeyHarness.origin)
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/registration", token: mine.accessToken, json: stolen.body()),
            "another account's registration challenge")
        // An authentication challenge, and a sign-up challenge, at registration.
        let mineOptions = try await harness.registrationOptions(mine.accessToken)
        for (what, challenge) in [
            ("authentication challenge", try Self.challenge(try await harness.authenticationOptions())),
            ("sign-up challenge", try Self.challenge(try await harness.signUpOptions())),
        ] {
            let made = try await harness.authenticator.create(
                mineOptions, origin: PasskeyHarness.origin, knobs: .with(\.challenge, challenge))
            PasskeyHarness.expectRefusal(
                try await harness.post("/auth/passkeys/registration", token: mine.accessToken, json: made.body()), what)
        }
        #expect(harness.ceremonies("registration", "challenge") == before + 3)
        #expect(try await harness.list(mine.accessToken).isEmpty)
        // A registration challenge at sign-in, and at sign-up.
        let account = try await harness.signUp()
        let signIns = harness.ceremonies("authentication", "challenge")
        let registrationChallenge = try Self.challenge(try await harness.registrationOptions(mine.accessToken))
        PasskeyHarness.expectRefusal(
            try await harness.signIn(account.credentialID, knobs: .with(\.challenge, registrationChallenge)),
            "a registration challenge at sign-in")
        #expect(harness.ceremonies("authentication", "challenge") == signIns + 1)
        let signUps = harness.ceremonies("signup", "challenge")
        let made = try await harness.authenticator.create(
            try await harness.signUpOptions(), origin: PasskeyHarness.origin,
            knobs: .with(\.challenge, try Self.challenge(try await harness.registrationOptions(mine.accessToken))))
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/signup", json: made.body()), "a registration challenge at sign-up")
        #expect(harness.ceremonies("signup", "challenge") == signUps + 1)
    }

    @Test("a challenge older than passkeys.timeoutSeconds is refused (challenge)")
    func expiredChallenge() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        let options = try await harness.authenticationOptions()
        harness.clock.advance(by: 301)
        let made = try await harness.authenticator.get(
            options, origin: PasskeyHarness.origin, credentialID: account.credentialID)
        let before = harness.ceremonies("authentication", "challenge")
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/authentication", json: made.body()), "expired challenge")
        #expect(harness.ceremonies("authentication", "challenge") == before + 1)
    }

    @Test("an assertion by a credential the server does not know is refused (unknown_credential)")
    func unknownCredential() async throws {
        let harness = try PasskeyHarness.shared()
        // Made for sign-up options, never sent.
        let made = try await harness.authenticator.create(
            try await harness.signUpOptions(), origin: PasskeyHarness.origin)
        let before = harness.ceremonies("authentication", "unknown_credential")
        PasskeyHarness.expectRefusal(try await harness.signIn(made.credentialID), "unknown credential")
        #expect(harness.ceremonies("authentication", "unknown_credential") == before + 1)
    }

    @Test("a credential id registered already (any account) is refused (duplicate_credential)")
    func duplicateCredential() async throws {
        let harness = try PasskeyHarness.shared()
        let first = try await harness.server.signUp()
        let added = try await harness.addPasskey(first.accessToken)
        let before = harness.ceremonies("registration", "duplicate_credential")
        for login in [first, try await harness.server.signUp()] {
            let made = try await harness.authenticator.create(
                try await harness.registrationOptions(login.accessToken), origin: PasskeyHarness.origin,
                knobs: .with(\.reuseCredential, added.credentialID))
            PasskeyHarness.expectRefusal(
                try await harness.post("/auth/passkeys/registration", token: login.accessToken, json: made.body()),
                "duplicate credential")
        }
        #expect(harness.ceremonies("registration", "duplicate_credential") == before + 2)
        let signUps = harness.ceremonies("signup", "duplicate_credential")
        let made = try await harness.authenticator.create(
            try await harness.signUpOptions(), origin: PasskeyHarness.origin,
            knobs: .with(\.reuseCredential, added.credentialID))
        PasskeyHarness.expectRefusal(
            try await harness.post("/auth/passkeys/signup", json: made.body()), "duplicate at sign-up")
        #expect(harness.ceremonies("signup", "duplicate_credential") == signUps + 1)
    }

    @Test("a disabled account cannot sign in with its passkey (account_disabled)")
    func disabledAccount() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        let accounts = try await AccountAdministration.open(configuration: harness.server.configuration)
        _ = try await accounts.disable(account: account.userID)
        accounts.close()
        let before = harness.ceremonies("authentication", "account_disabled")
        let refused = try await TestBackend.afterOtherStoreChange {
            try await harness.signIn(account.credentialID)
        } until: {
            $0.status == 401
        }
        PasskeyHarness.expectRefusal(refused, "disabled account")
        #expect(harness.ceremonies("authentication", "account_disabled") >= before + 1)
    }

    @Test("failed passkey sign-ins never lock the account's password login")
    func noAccountLockout() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let added = try await harness.addPasskey(login.accessToken)
        for _ in 0..<12 {
            PasskeyHarness.expectRefusal(
                try await harness.signIn(added.credentialID, knobs: .with(\.tamperSignature, true)), "tampered")
        }
        _ = try await harness.server.logIn(email: login.email)
        #expect(try await harness.signIn(added.credentialID).status == 200)
    }

    @Test("malformed bodies and credentials are 400 invalid_request")
    func malformed() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let registration = "/auth/passkeys/registration"
        for (what, json) in [
            ("not JSON", "{\"credential\":"), ("credential not an object", #"{"credential":"x"}"#),
            ("no credential", "{}"), ("a name of 65 characters", nil),
        ] {
            var body = json
            if body == nil {
                let made = try await harness.authenticator.create(
                    try await harness.registrationOptions(login.accessToken), origin: PasskeyHarness.origin)
                body = made.body(name: String(repeating: "n", count: 65))
            }
            PasskeyHarness.expectMalformed(
                try await harness.post(registration, token: login.accessToken, json: body), what)
        }
        let before = harness.ceremonies("registration", "malformed")
        let malformations: [PasskeyAuthenticator.Malformation] = [
            .base64, .clientDataJSON, .cbor, .coseKey, .authenticatorData,
        ]
        for malformation in malformations {
            let made = try await harness.authenticator.create(
                try await harness.registrationOptions(login.accessToken), origin: PasskeyHarness.origin,
                knobs: .with(\.malformed, malformation))
            #expect(!made.pyWebauthnAccepted, "py_webauthn refuses \(malformation) too")
            PasskeyHarness.expectMalformed(
                try await harness.post(registration, token: login.accessToken, json: made.body()),
                "registration: \(malformation)")
        }
        #expect(harness.ceremonies("registration", "malformed") == before + Double(malformations.count))
        let account = try await harness.signUp()
        let signIns = harness.ceremonies("authentication", "malformed")
        let assertionMalformations: [PasskeyAuthenticator.Malformation] = [
            .base64, .clientDataJSON, .authenticatorData,
        ]
        for malformation in assertionMalformations {
            PasskeyHarness.expectMalformed(
                try await harness.signIn(account.credentialID, knobs: .with(\.malformed, malformation)),
                "assertion: \(malformation)")
        }
        #expect(harness.ceremonies("authentication", "malformed") == signIns + Double(assertionMalformations.count))
        PasskeyHarness.expectMalformed(
            try await harness.post("/auth/passkeys/authentication", json: "[]"), "a body that is not an object")
        PasskeyHarness.expectMalformed(
            try await harness.post("/auth/passkeys/signup", json: #"{"credential":{"id":"x"}}"#), "a partial credential"
        )
    }

    /// Every refusal's body is the first one's.
    private static func expectOneBody(_ answer: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        let first = firstBody.withLock { stored in
            if stored == nil { stored = answer.text }
            return stored ?? ""
        }
        #expect(answer.text == first, "one body for every failed check", sourceLocation: sourceLocation)
    }

    private static let firstBody = Mutex<String?>(nil)

    private static func challenge(_ options: String) throws -> String {
        try #require(try PasskeyHarness.object(options)["challenge"] as? String)
    }
}
