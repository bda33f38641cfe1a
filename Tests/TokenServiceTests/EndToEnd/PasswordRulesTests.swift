import Foundation
import Testing
import TokenServiceTesting

@testable import TokenService

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct PasswordRulesTests {
    func register(_ server: TestServer, _ password: String) async throws -> TestResponse {
        try await server.request(
            "POST", "/auth/register",
            json: #"{"email":"pw-\#(UUID().uuidString.prefix(8))@example.com","password":"\#(password)"}"#)
    }

    @Test("a common password gets 400 weak_password, an 11-character one 400 invalid_request, a good one 201")
    func registration() async throws {
        try await withTestServer(mode: .router) { server in
            for common in ["1qaz2wsx3edc", "Q1W2E3R4T5Y6", "qazwsxedcrfv"] {
                let refused = try await register(server, common)
                #expect(refused.status == 400)
                #expect(refused.errorCode == "weak_password")
            }
            let short = try await register(server, "elevenchars")
            #expect(short.status == 400)
            #expect(short.errorCode == "invalid_request")
            #expect(try short.object()["message"] as? String == "The password must be 12 to 128 characters.")
            #expect(try await register(server, TestServer.password).status == 201)
        }
    }

    @Test("a register body with a bad email and other faults names the email, as before the typed decoders")
    func emailFaultNamedFirst() async throws {
        try await withTestServer(mode: .router) { server in
            for body in [#"{"email":"bad"}"#, #"{"email":"bad","password":12}"#, #"{"email":"bad","tenantId":3}"#] {
                let refused = try await server.request("POST", "/auth/register", json: body)
                #expect(refused.status == 400)
                #expect(try refused.object()["message"] as? String == "The email address is not valid.")
            }
        }
    }

    @Test("password.minLength can go down to 8; the common list still applies, case-insensitively after NFC")
    func lowerMinimum() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_PASSWORD_MIN_LENGTH": "8"]) { server in
            let mixedCase = try await register(server, "PassWord")
            #expect(mixedCase.errorCode == "weak_password")
            let common = try await register(server, "sunshine")
            #expect(common.errorCode == "weak_password")
            let seven = try await register(server, "seven77")
            #expect(seven.errorCode == "invalid_request")
            let eight = try await register(server, "tv8-lamp")
            #expect(eight.status == 201)
        }
    }

    @Test("tokenvend users add applies the same rules")
    func usersAdd() async throws {
        try await withTestServer(mode: .router) { server in
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            await #expect(throws: AccountAdministration.Failure.weakPassword) {
                try await accounts.add(email: "a@example.com", password: "123456QWERTY", role: "user", tenantID: nil)
            }
            await #expect(throws: AccountAdministration.Failure.invalidPassword(minLength: 12)) {
                try await accounts.add(email: "a@example.com", password: "elevenchars", role: "user", tenantID: nil)
            }
            let account = try await accounts.add(
                email: "a@example.com", password: TestServer.password, role: "user", tenantID: nil)
            #expect(account.emailVerified)
        }
    }

    @Test("the embedded list has the 10,000 entries and matches after NFC normalisation and lowercasing")
    func embeddedList() {
        #expect(CommonPasswords.entries.count == 10_000)
        #expect(CommonPasswords.contains("password") && CommonPasswords.contains("PASSWORD"))
        #expect(!CommonPasswords.contains(TestServer.password))
        // Decomposed "e" + U+0301 and precomposed U+00E9 are the same password; neither is on the list.
        #expect(CommonPasswords.contains("cafe\u{301}") == CommonPasswords.contains("caf\u{e9}"))
        let policy = PasswordPolicy()
        #expect(policy.minLength == 12)
        if case .failure(let rejection) = policy.newPassword("Dragon") { #expect(rejection == .length) }
        if case .failure(let rejection) = policy.newPassword("1Q2W3E4R5T6Y") { #expect(rejection == .common) }
        #expect((try? policy.newPassword(TestServer.password).get()) != nil)
    }
}
