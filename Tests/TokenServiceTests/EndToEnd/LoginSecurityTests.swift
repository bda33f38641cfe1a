import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct LoginSecurityTests {
    private func login(_ server: TestServer, _ email: String, _ password: String, address: String? = nil)
        async throws -> TestResponse
    {
        try await server.request(
            "POST", "/auth/login", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    @Test("unknown email and wrong password get the same status, headers and body")
    func uniformFailures() async throws {
        try await withTestServer { server in
            let user = try await server.signUp()
            let unknown = try await login(server, "nobody@example.com", TestServer.password)
            let wrong = try await login(server, user.email, "wrong password!")
            let tooLong = try await login(server, user.email, String(repeating: "x", count: 300))
            for response in [unknown, wrong, tooLong] {
                #expect(response.status == 401)
                #expect(response.text == unknown.text)
                var headers = response.headers
                var reference = unknown.headers
                for volatile in ["date", "x-request-id"] {
                    headers[volatile] = nil
                    reference[volatile] = nil
                }
                #expect(headers == reference)
            }
            #expect(unknown.errorCode == "invalid_credentials")
        }
    }

    @Test("too many failures for one account get 429 with Retry-After, even with the right password")
    func accountRateLimit() async throws {
        try await withTestServer(environment: ["TOKENVEND_RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT": "3"]) { server in
            let user = try await server.signUp()
            for _ in 0..<3 { #expect(try await login(server, user.email, "wrong password!").status == 401) }
            let limited = try await login(server, user.email, TestServer.password)
            #expect(limited.status == 429)
            #expect(limited.errorCode == "too_many_requests")
            let retryAfter = try #require(limited.headers["retry-after"].flatMap(Int.init))
            #expect(retryAfter > 0 && retryAfter <= 900)
            #expect(server.server.metrics.logins.value(.rateLimited) == 1)
        }
    }

    @Test("too many token requests from one address get 429")
    func addressRateLimit() async throws {
        try await withTestServer(environment: ["TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "5"]) { server in
            var statuses: [Int] = []
            for index in 0..<7 {
                statuses.append(try await login(server, "person\(index)@example.com", "wrong password!").status)
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == 401 })
            #expect(statuses.suffix(2).allSatisfy { $0 == 429 })
        }
    }

    @Test("a storm of logins beyond the hashing queue gets 503 with Retry-After while token endpoints answer")
    func hashingOverload() async throws {
        let environment = [
            "TOKENVEND_PASSWORD_MAX_CONCURRENT_HASHES": "1", "TOKENVEND_PASSWORD_MAX_QUEUED_HASHES": "1",
            "TOKENVEND_PASSWORD_TIME_COST": "3", "TOKENVEND_PASSWORD_MEMORY_COST": "32768",
        ]
        try await withTestServer(environment: environment) { server in
            let user = try await server.signUp()
            async let storm = withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<12 { group.addTask { try await login(server, user.email, "wrong password!") } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let me = try await server.request("GET", "/auth/me", headers: user.bearer)
            #expect(me.status == 200)
            let answers = try await storm
            let overloaded = answers.filter { $0.status == 503 }
            #expect(!overloaded.isEmpty)
            #expect(overloaded.allSatisfy { $0.headers["retry-after"] != nil && $0.errorCode == "unavailable" })
            #expect(answers.allSatisfy { $0.status == 503 || $0.status == 401 || $0.status == 429 })
        }
    }

    @Test("a hash made with an older cost is upgraded on the next login")
    func rehashOnLogin() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rehash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("db.sqlite").path
        let cheap = ["TOKENVEND_DATABASE_PATH": database, "TOKENVEND_PASSWORD_TIME_COST": "1"]
        let email = "rehash@example.com"
        try await withTestServer(environment: cheap) { server in
            _ = try await server.signUp(email: email)
        }
        let dearer = cheap.merging(["TOKENVEND_PASSWORD_TIME_COST": "2"]) { $1 }
        try await withTestServer(environment: dearer) { server in
            _ = try await server.logIn(email: email)
            #expect(server.logs().contains("password hash upgraded"))
            _ = try await server.logIn(email: email)
            #expect(server.logs().components(separatedBy: "password hash upgraded").count == 2)
        }
    }
}
