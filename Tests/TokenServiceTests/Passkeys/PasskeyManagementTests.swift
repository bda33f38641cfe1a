import Foundation
import Testing
import TokenServiceTesting

/// `GET /auth/passkeys`, `PATCH` and `DELETE /auth/passkeys/{id}`: the caller's passkeys only, names, the last
/// sign-in method rule and its four ways out (a password, another passkey, email-code sign-in with an email, a linked
/// identity), and account deletion taking the passkeys along. Email-code sign-in is on in this suite's server.
@Suite(
    .tags(.integration), .timeLimit(.minutes(1)), .serialized,
    .sharedPasskeyServer(["TOKENVEND_EMAIL_SIGN_IN_CODES": "true"]))
struct PasskeyManagementTests {
    @Test("list (oldest first), rename (trimmed, 1–64 characters) and delete the caller's passkeys")
    func listRenameDelete() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let first = try await harness.addPasskey(login.accessToken, name: "Phone")
        harness.clock.advance(by: 1)
        // Another device: the first one holds an excluded credential and refuses, as a real authenticator does.
        let second = try await harness.addPasskey(
            login.accessToken, device: try await harness.authenticator.newDevice())
        #expect(second.passkey["name"] as? String == "Passkey")
        let listed = try await harness.list(login.accessToken)
        #expect(listed.compactMap { $0["id"] as? String } == [first.credentialID, second.credentialID])
        #expect(listed.compactMap { $0["name"] as? String } == ["Phone", "Passkey"])
        for passkey in listed {
            #expect(Set(passkey.keys) == ["id", "name", "createdAt", "lastUsedAt", "backedUp", "deviceType"])
        }

        let renamed = try await rename(harness, login.accessToken, second.credentialID, "  Tablet ")
        #expect(renamed.status == 200, "\(renamed.text)")
        #expect((try renamed.object()["passkey"] as? [String: Any])?["name"] as? String == "Tablet")
        #expect(
            try await rename(harness, login.accessToken, second.credentialID, String(repeating: "é", count: 64))
                .status == 200)
        for bad in ["", "   ", String(repeating: "n", count: 65)] {
            PasskeyHarness.expectMalformed(
                try await rename(harness, login.accessToken, second.credentialID, bad), "name \(bad.count)")
        }
        PasskeyHarness.expectMalformed(
            try await harness.server.request(
                "PATCH", "/auth/passkeys/\(second.credentialID)", headers: login.bearer, json: "{}"),
            "no name")

        let deleted = try await delete(harness, login.accessToken, first.credentialID)
        #expect(deleted.status == 204, "\(deleted.text)")
        #expect(try await harness.list(login.accessToken).compactMap { $0["id"] as? String } == [second.credentialID])
        // The deleted passkey no longer signs in.
        PasskeyHarness.expectRefusal(try await harness.signIn(first.credentialID), "deleted passkey")
        // Without an access token: 401.
        #expect(try await harness.server.request("GET", "/auth/passkeys").status == 401)
    }

    @Test("another account's passkey id, or an unknown one, is 404 at PATCH and DELETE")
    func otherAccountsPasskey() async throws {
        let harness = try PasskeyHarness.shared()
        let owner = try await harness.server.signUp()
        let added = try await harness.addPasskey(owner.accessToken)
        let intruder = try await harness.server.signUp()
        _ = try await harness.addPasskey(intruder.accessToken)
        for id in [added.credentialID, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
            let renamed = try await rename(harness, intruder.accessToken, id, "Mine now")
            #expect(renamed.status == 404 && renamed.errorCode == "not_found", "\(renamed.text)")
            let deleted = try await delete(harness, intruder.accessToken, id)
            #expect(deleted.status == 404 && deleted.errorCode == "not_found", "\(deleted.text)")
        }
        #expect(try await harness.list(owner.accessToken).first?["name"] as? String == "Passkey")
        #expect(try await harness.list(intruder.accessToken).count == 1)
    }

    @Test("deleting the only way in is 409 last_sign_in_method; another passkey is a way out")
    func lastSignInMethodAndAnotherPasskey() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        let refused = try await delete(harness, account.accessToken, account.credentialID)
        #expect(refused.status == 409 && refused.errorCode == "last_sign_in_method", "\(refused.text)")
        #expect(try await harness.list(account.accessToken).count == 1)
        let device = try await harness.authenticator.newDevice()
        let second = try await harness.addPasskey(account.accessToken, device: device)
        #expect(try await delete(harness, account.accessToken, account.credentialID).status == 204)
        let last = try await delete(harness, account.accessToken, second.credentialID)
        #expect(last.status == 409 && last.errorCode == "last_sign_in_method", "\(last.text)")
        #expect(try await harness.signIn(second.credentialID, device: device).status == 200)
    }

    @Test("a password is a way out: a password account can delete its only passkey")
    func passwordWayOut() async throws {
        let harness = try PasskeyHarness.shared()
        let login = try await harness.server.signUp()
        let added = try await harness.addPasskey(login.accessToken)
        #expect(try await delete(harness, login.accessToken, added.credentialID).status == 204)
        #expect(try await harness.list(login.accessToken).isEmpty)
    }

    @Test("email-code sign-in with an email on the account is a way out")
    func emailCodeWayOut() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp(email: "codes-\(UUID().uuidString.prefix(8).lowercased())@example.com")
        let deleted = try await delete(harness, account.accessToken, account.credentialID)
        #expect(deleted.status == 204, "\(deleted.text)")
    }

    @Test("a linked identity is a way out (email-code sign-in off, no password, no email)")
    func linkedIdentityWayOut() async throws {
        let provider = try FakeIdentityProvider()
        do {
            try await Self.linkedIdentity(provider)
        } catch {
            await provider.shutdown()
            throw error
        }
        await provider.shutdown()
    }

    private static func linkedIdentity(_ provider: FakeIdentityProvider) async throws {
        let harness = try await PasskeyHarness(
            environment: provider.environment().mapValues { Optional($0) },
            authenticator: try PasskeyHarness.shared().authenticator)
        do {
            let signedIn = try await harness.server.signInWithIDToken {
                try FakeIdentityProvider.token(subject: "passkey-\(UUID().uuidString)", nonce: $0)
            }
            #expect(signedIn.status == 200, "\(signedIn.text)")
            let token = try #require(try signedIn.object()["accessToken"] as? String)
            let added = try await harness.addPasskey(token)
            let deleted = try await harness.server.request(
                "DELETE", "/auth/passkeys/\(added.credentialID)", headers: ["Authorization": "Bearer \(token)"])
            #expect(deleted.status == 204, "\(deleted.text)")
            // A passkey-only account without an email on this server (no email codes) keeps its last passkey.
            let account = try await harness.signUp()
            let refused = try await harness.server.request(
                "DELETE", "/auth/passkeys/\(account.credentialID)",
                headers: ["Authorization": "Bearer \(account.accessToken)"])
            #expect(refused.status == 409 && refused.errorCode == "last_sign_in_method", "\(refused.text)")
        } catch {
            await harness.server.stop()
            throw error
        }
        await harness.server.stop()
    }

    @Test("deleting the account deletes its passkeys: they no longer sign in")
    func accountDeletion() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        let device = try await harness.authenticator.newDevice()
        let second = try await harness.addPasskey(account.accessToken, device: device)
        let deleted = try await harness.server.request(
            "DELETE", "/auth/account", headers: ["Authorization": "Bearer \(account.accessToken)"], json: "{}")
        #expect(deleted.status == 200, "\(deleted.text)")
        let before = harness.ceremonies("authentication", "unknown_credential")
        for (id, holder) in [(account.credentialID, account.device), (second.credentialID, device)] {
            PasskeyHarness.expectRefusal(
                try await harness.signIn(id, device: holder), "passkey of a deleted account")
        }
        #expect(harness.ceremonies("authentication", "unknown_credential") == before + 2)
    }

    private func rename(_ harness: PasskeyHarness, _ token: String, _ id: String, _ name: String) async throws
        -> TestResponse
    {
        let body = #"{"name":\#(String(decoding: try JSONEncoder().encode(name), as: UTF8.self))}"#
        return try await harness.server.request(
            "PATCH", "/auth/passkeys/\(id)", headers: ["Authorization": "Bearer \(token)"], json: body)
    }

    private func delete(_ harness: PasskeyHarness, _ token: String, _ id: String) async throws -> TestResponse {
        try await harness.server.request(
            "DELETE", "/auth/passkeys/\(id)", headers: ["Authorization": "Bearer \(token)"])
    }
}
