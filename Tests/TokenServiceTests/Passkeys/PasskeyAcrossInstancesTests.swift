import Foundation
import PostgresTesting
import Testing
import TokenServiceTesting

/// Two instances on one PostgreSQL database (`passkey_challenges`, `passkeys`): a challenge issued by one is used
/// once on the other, and an assertion accepted by one is refused when replayed at the other.
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized)
struct PasskeyAcrossInstancesTests {
    @Test(
        "a challenge from one instance is usable once on the other; a replayed assertion is refused there",
        .enabled(if: TestPostgres.isConfigured))
    func acrossInstances() async throws {
        let database = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(database) }
        let environment: [String: String?] = [
            "TOKENVEND_DATABASE_URL": try TestPostgres.url(database: database),
            "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"pair-1","secret":"\#(String(repeating: "k", count: 64))"}]"#,
            "TOKENVEND_REFRESH_TOKEN_SECRET": String(repeating: "r", count: 64),
        ]
        let clock = DPoPClock()
        let a = try await PasskeyHarness(environment: environment, clock: clock)
        let b: PasskeyHarness
        do {
            b = try await PasskeyHarness(environment: environment, authenticator: a.authenticator, clock: clock)
        } catch {
            await a.stop()
            throw error
        }
        do {
            try await Self.check(a, b)
        } catch {
            await b.server.stop()
            await a.stop()
            throw error
        }
        await b.server.stop()
        await a.stop()
    }

    private static func check(_ a: PasskeyHarness, _ b: PasskeyHarness) async throws {
        // Sign-up: options from A, the credential to B; the same challenge again at A is spent.
        let signUpOptions = try await a.signUpOptions()
        let made = try await a.authenticator.create(signUpOptions, origin: PasskeyHarness.origin)
        let again = try await a.authenticator.create(signUpOptions, origin: PasskeyHarness.origin)
        let signedUp = try await b.post("/auth/passkeys/signup", json: made.body())
        #expect(signedUp.status == 200, "sign-up at B: \(signedUp.text)")
        let token = try #require(try signedUp.object()["accessToken"] as? String)
        PasskeyHarness.expectRefusal(try await a.post("/auth/passkeys/signup", json: again.body()), "sign-up at A")
        #expect(a.ceremonies("signup", "challenge") == 1)

        // Registration: options from B (the account made at B), the credential to A; then again at B.
        let options = try await b.registrationOptions(token)
        let device = try await b.authenticator.newDevice()  // the first one holds the excluded credential
        let second = try await b.authenticator.create(options, origin: PasskeyHarness.origin, device: device)
        let replay = try await b.authenticator.create(options, origin: PasskeyHarness.origin, device: device)
        let registered = try await a.post("/auth/passkeys/registration", token: token, json: second.body())
        #expect(registered.status == 201, "registration at A: \(registered.text)")
        PasskeyHarness.expectRefusal(
            try await b.post("/auth/passkeys/registration", token: token, json: replay.body()), "registration at B")
        // A credential registered at A is a duplicate at B.
        let duplicate = try await b.authenticator.create(
            try await b.registrationOptions(token), origin: PasskeyHarness.origin, device: device,
            knobs: .with(\.reuseCredential, second.credentialID))
        PasskeyHarness.expectRefusal(
            try await b.post("/auth/passkeys/registration", token: token, json: duplicate.body()), "duplicate at B")
        #expect(b.ceremonies("registration", "duplicate_credential") == 1)

        // Authentication: options from A, the assertion accepted by B, then replayed at A and at B.
        let assertion = try await a.authenticator.get(
            try await a.authenticationOptions(), origin: PasskeyHarness.origin, credentialID: made.credentialID)
        let signedIn = try await b.post("/auth/passkeys/authentication", json: assertion.body())
        #expect(signedIn.status == 200, "sign-in at B: \(signedIn.text)")
        PasskeyHarness.expectRefusal(
            try await a.post("/auth/passkeys/authentication", json: assertion.body()), "replay at A")
        PasskeyHarness.expectRefusal(
            try await b.post("/auth/passkeys/authentication", json: assertion.body()), "replay at B")
        #expect(a.ceremonies("authentication", "challenge") == 1)
        // The counter B recorded holds at A: an older counter is a clone there.
        let older = try await a.authenticator.get(
            try await a.authenticationOptions(), origin: PasskeyHarness.origin, credentialID: made.credentialID,
            knobs: .with(\.counter, 1))
        PasskeyHarness.expectRefusal(
            try await a.post("/auth/passkeys/authentication", json: older.body()), "clone at A")
        #expect(a.ceremonies("authentication", "clone_suspected") == 1)
        // Both list both passkeys, and both sign in with the second one.
        #expect(try await a.list(token).count == 2)
        #expect(try await b.list(token).count == 2)
        #expect(try await a.signIn(second.credentialID, device: device).status == 200)
        #expect(try await b.signIn(second.credentialID, device: device).status == 200)
    }
}
