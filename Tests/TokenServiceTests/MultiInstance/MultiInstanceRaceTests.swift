import Foundation
import Testing
import TokenServiceTesting

/// Two real `tokenvend serve` processes on one PostgreSQL database: the guarantees of one instance hold when
/// racing requests reach different instances (issue 16, "End-to-end, two processes on one database").
@Suite("two instances on one PostgreSQL database", .tags(.integration), .timeLimit(.minutes(3)), .serialized)
struct MultiInstanceRaceTests {
    static let password = InstancePair.userPassword

    @Test("20 concurrent refreshes of one token split across A and B all get 200 with one and the same new pair")
    func concurrentRefreshesConverge() async throws {
        let pair = try await InstancePair()
        let (a, b) = (pair.a.client, pair.b.client)
        let email = "race-\(UUID().uuidString.prefix(8))@example.com"
        #expect(try await a.register(email, Self.password).status == 201)
        let login = try await b.login(email, Self.password)
        try #require(login.status == 200)
        let token = try #require(login.refreshToken)
        let session = try MultiInstanceTokens.sessionID(of: try #require(login.accessToken))

        let answers = try await withThrowingTaskGroup(of: InstanceClient.Answer.self) { group in
            for index in 0..<20 {
                let client = index.isMultiple(of: 2) ? a : b
                group.addTask { try await client.refresh(token) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.map(\.status) == Array(repeating: 200, count: 20), "\(answers.map(\.object))")
        let successors = Set(answers.compactMap(\.refreshToken))
        #expect(successors.count == 1, "the racing refreshes rotated the session more than once")
        let next = try #require(successors.first)
        #expect(next != token)
        for answer in answers {
            let access = try #require(answer.accessToken)
            #expect(try MultiInstanceTokens.sessionID(of: access) == session)
        }
        // One rotation: the stored counter moved from the login's 0 to 1, not further.
        #expect(try pair.psql("SELECT counter FROM sessions WHERE id = '\(session)'") == "1")
        // The session is not revoked: the new token refreshes on either instance, and its access token works.
        let later = try await a.refresh(next)
        #expect(later.status == 200)
        #expect(try await b.me(try #require(later.accessToken)).status == 200)
        #expect(!pair.logs().contains(InstancePair.databasePassword))
    }

    @Test("a token reused after the grace window on B revokes the session, and A rejects its access token at once")
    func reuseOnOneInstanceRevokesOnTheOther() async throws {
        var settings = InstancePair.Settings()
        settings.reuseGraceSeconds = 1
        let pair = try await InstancePair(settings)
        let (a, b) = (pair.a.client, pair.b.client)
        let email = "reuse-\(UUID().uuidString.prefix(8))@example.com"
        #expect(try await a.register(email, Self.password).status == 201)
        let login = try await a.login(email, Self.password)
        let spent = try #require(login.refreshToken)
        let rotated = try await a.refresh(spent)
        try #require(rotated.status == 200)
        let access = try #require(rotated.accessToken)
        let live = try #require(rotated.refreshToken)
        try await Task.sleep(for: .milliseconds(1500))
        // A has checked this access token and its session: whatever it keeps, it keeps now.
        #expect(try await a.me(access).status == 200)

        let reuse = try await b.refresh(spent)
        #expect(reuse.status == 401)
        #expect(reuse.errorCode == "invalid_grant")
        // The notification from B's revocation reaches A within milliseconds; A's own cache would keep the
        // session for up to 1 s, so this fails without it.
        try await Task.sleep(for: .milliseconds(10))
        let afterwards = try await a.me(access)
        #expect(afterwards.status == 401, "A still accepted the access token of a session B revoked")
        #expect(try await a.refresh(live).status == 401)
        #expect(try await b.me(access).status == 401)
    }

    @Test("six failed logins for one account alternating between A and B: the sixth gets 429 with Retry-After")
    func loginFailuresAreCountedAcrossInstances() async throws {
        let pair = try await InstancePair()
        let (a, b) = (pair.a.client, pair.b.client)
        let email = "fail-\(UUID().uuidString.prefix(8))@example.com"
        #expect(try await a.register(email, Self.password).status == 201)
        var statuses: [Int] = []
        var last: InstanceClient.Answer?
        for attempt in 0..<6 {
            let answer = try await (attempt.isMultiple(of: 2) ? a : b).login(email, "wrong password \(attempt)")
            statuses.append(answer.status)
            last = answer
        }
        #expect(statuses == [401, 401, 401, 401, 401, 429])
        let retryAfter = try #require(last?.headers["retry-after"], "429 without Retry-After")
        #expect((Int(retryAfter) ?? 0) >= 1)
        // Even the right password is refused now, on both instances.
        #expect(try await a.login(email, Self.password).status == 429)
        #expect(try await b.login(email, Self.password).status == 429)
    }

    @Test("both instances started at the same moment on an empty database migrate it once, and both serve")
    func simultaneousStartMigratesOnce() async throws {
        let pair = try await InstancePair()
        let rows = try pair.psql(
            "SELECT version, count(*) FROM tokenvend_schema_migrations GROUP BY version ORDER BY 1")
        let counts = rows.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        try #require(!counts.isEmpty, "no migration recorded")
        #expect(counts.allSatisfy { $0.count == 2 && $0[1] == "1" }, "a migration was recorded twice: \(rows)")
        let versions = counts.compactMap { Int($0[0]) }
        #expect(versions == Array(1...versions.count), "versions \(versions) are not 1...n")
        // Both serve: each registers a user the other can log in.
        let (a, b) = (pair.a.client, pair.b.client)
        let first = "mig-a-\(UUID().uuidString.prefix(8))@example.com"
        let second = "mig-b-\(UUID().uuidString.prefix(8))@example.com"
        #expect(try await a.register(first, Self.password).status == 201)
        #expect(try await b.register(second, Self.password).status == 201)
        #expect(try await b.login(first, Self.password).status == 200)
        #expect(try await a.login(second, Self.password).status == 200)
        #expect(!pair.logs().contains(InstancePair.databasePassword))
    }
}

/// Reading access tokens without the server's keys.
enum MultiInstanceTokens {
    /// The `sid` claim of an access token, decoded with Foundation.
    static func sessionID(of accessToken: String) throws -> String {
        try KillDurabilityTests.sessionID(of: accessToken)
    }
}
