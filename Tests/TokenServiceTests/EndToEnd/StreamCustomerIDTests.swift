import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct StreamCustomerIDTests {
    func streamIDs(_ server: TestServer, _ login: Login, json: String? = nil) async throws -> [String: String]? {
        let response = try await server.request("POST", "/stream-token", headers: login.bearer, json: json)
        guard response.status == 200 else { return nil }
        let token = try #require(try response.object()["token"] as? String)
        return try StreamTokenTests.verifyIndependently(token, secret: TestServer.streamSecret).payload["ids"]
            as? [String: String]
    }

    @Test("a self-registered email is never a customer id, even with stream.emailCustomerId on")
    func registeredUser() async throws {
        for flag in ["false", "true"] {
            try await withTestServer(mode: .router, environment: ["TOKENVEND_STREAM_EMAIL_CUSTOMER_ID": flag]) {
                server in
                let victim = "victim@example.com"
                let squatter = try await server.signUp(email: victim)
                #expect(try await streamIDs(server, squatter) == ["registered": squatter.userID])
                #expect(
                    try await streamIDs(server, squatter, json: #"{"customerIds":{"registered":"\#(victim)"}}"#) == nil)
                let refused = try await server.request(
                    "POST", "/stream-token", headers: squatter.bearer,
                    json: #"{"customerIds":{"registered":"\#(victim)"}}"#)
                #expect(refused.status == 403 && refused.errorCode == "insufficient_scope")
                #expect(
                    try await streamIDs(
                        server, squatter, json: #"{"customerIds":{"registered":"\#(squatter.userID)"}}"#)
                        == ["registered": squatter.userID])
            }
        }
    }

    @Test("users add makes a verified email the registered id when stream.emailCustomerId is on, not when off")
    func operatorCreated() async throws {
        for (flag, expectEmail) in [("true", true), ("false", false)] {
            try await withTestServer(mode: .router, environment: ["TOKENVEND_STREAM_EMAIL_CUSTOMER_ID": flag]) {
                server in
                let accounts = try await AccountAdministration.open(configuration: server.configuration)
                let account = try await accounts.add(
                    email: "ada@example.com", password: TestServer.password, role: "user", tenantID: nil)
                #expect(account.customerIDs == ["registered": expectEmail ? "ada@example.com" : account.id])
                accounts.close()
                let login = try await server.logIn(email: "ada@example.com")
                #expect(
                    try await streamIDs(server, login) == ["registered": expectEmail ? "ada@example.com" : login.userID]
                )
            }
        }
    }

    @Test("verify-email and set-customer-id still decide the registered id of an existing account")
    func operatorOverrides() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_STREAM_EMAIL_CUSTOMER_ID": "true"]) { server in
            let login = try await server.signUp(email: "bob@example.com")
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            try await accounts.verifyEmail(email: "Bob@Example.com")
            let verified = ["registered": "bob@example.com"]
            #expect(
                try await TestBackend.afterOtherStoreChange {
                    try await streamIDs(server, login)
                } until: {
                    $0 == verified
                } == verified)
            try await accounts.setCustomerID(email: "bob@example.com", key: "registered", value: "CRM-9")
            let set = ["registered": "CRM-9"]
            #expect(
                try await TestBackend.afterOtherStoreChange {
                    try await streamIDs(server, login)
                } until: {
                    $0 == set
                }
                    == set)
            await #expect(throws: AccountAdministration.Failure.notFound) {
                try await accounts.verifyEmail(email: "x@example.com")
            }
        }
    }
}
