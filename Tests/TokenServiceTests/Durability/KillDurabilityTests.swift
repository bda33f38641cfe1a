import Foundation
import SQLiteStore
import Store
import Synchronization
import Testing
import TokenServiceTesting

/// `kill -9` of the real binary in the middle of refreshes, registrations and logouts, then a restart on the
/// same database: nothing acknowledged is lost and no session ends up with two live refresh tokens.
@Suite("kill -9 durability of the real binary", .tags(.integration), .timeLimit(.minutes(2)), .serialized)
struct KillDurabilityTests {
    static let password = "correct horse battery"
    /// A grace window far longer than a restart, so "converges" is what is being tested, not the timing.
    static let environment = [
        "TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "120",
        "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000000",
    ]

    /// What the clients saw acknowledged before the kill.
    struct Ledger {
        /// Per refreshing session: its id, the login's refresh token, then every acknowledged successor (each
        /// acknowledged to two racing clients, or to one when the other's request died with the server).
        var chains: [(sessionID: String, tokens: [String])] = []
        /// Emails whose registration was answered 201.
        var registered: [String] = []
        /// Sessions whose logout was answered 204.
        var loggedOut: [(refresh: String, access: String)] = []
        /// Requests answered with a status the loop did not expect.
        var surprises: [String] = []
    }

    /// The ledger shared by the client loops.
    final class Recorder: Sendable {
        private let state: Mutex<Ledger>

        init(_ ledger: Ledger) {
            state = Mutex(ledger)
        }

        func withLock<T: Sendable>(_ body: (inout Ledger) -> T) -> T {
            state.withLock { body(&$0) }
        }
    }

    @Test(
        "kill -9 during writes loses no acknowledged write and leaves no session with two live tokens", arguments: 1...3
    )
    func killDuringWrites(round: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appending(path: "tokenvend.sqlite")
        let logFile = folder.appending(path: "server.log")

        let first = try ChildServer(database: database, logFile: logFile, environment: Self.environment)
        let ledger = Recorder(try await Self.prepare(ChildClient(port: first.port)))
        let pending = ledger.withLock { $0.loggedOut }
        ledger.withLock { $0.loggedOut = [] }
        let killAfter = Int.random(in: 50...300)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let client = ChildClient(port: first.port)
            let sessions = ledger.withLock { $0.chains.count }
            for index in 0..<sessions {
                group.addTask { await Self.refreshLoop(client, ledger, index) }
            }
            group.addTask { await Self.registrationLoop(client, ledger, round: round) }
            group.addTask { await Self.logoutLoop(client, ledger, pending) }
            try await Task.sleep(for: .milliseconds(killAfter))
            first.stop(with: SIGKILL)
            try await group.waitForAll()
        }
        let seen = ledger.withLock { $0 }
        #expect(seen.surprises.isEmpty)

        // Every acknowledged rotation is on disk; at most the one in flight at the kill is there too.
        let counters = try Self.inspect(database, sessionIDs: seen.chains.map(\.sessionID))
        var committedInFlight = 0
        for (chain, counter) in zip(seen.chains, counters) {
            let acknowledged = Int64(chain.tokens.count - 1)
            #expect(counter == acknowledged || counter == acknowledged + 1, "session \(chain.sessionID)")
            if counter == acknowledged + 1 { committedInFlight += 1 }
        }

        let second = try ChildServer(database: database, logFile: logFile, environment: Self.environment)
        let client = ChildClient(port: second.port)
        for chain in seen.chains { try await Self.expectOneLiveToken(client, chain.tokens) }
        for email in seen.registered {
            let again = try await client.send("POST", "/auth/register", json: client.credentials(email, Self.password))
            #expect(again.status == 409, "registration of \(email) was acknowledged before the kill")
        }
        if let email = seen.registered.last {
            #expect(
                try await client.send("POST", "/auth/login", json: client.credentials(email, Self.password)).status
                    == 200)
        }
        for session in seen.loggedOut {
            #expect(try await client.refresh(session.refresh).status == 401)
            #expect(try await client.send("GET", "/auth/me", bearer: session.access).status == 401)
        }
        #expect(second.stop(with: SIGTERM) == 0)
        _ = try Self.inspect(database, sessionIDs: [])
        let refreshes = seen.chains.map { $0.tokens.count - 1 }.reduce(0, +)
        print(
            "kill -9 round \(round): after \(killAfter) ms; \(refreshes) refreshes, \(seen.registered.count) "
                + "registrations, \(seen.loggedOut.count) logouts acknowledged; \(committedInFlight) of "
                + "\(seen.chains.count) in-flight rotations committed")
    }

    /// Registers two users with three sessions each (to refresh) and a third with six (to log out).
    static func prepare(_ client: ChildClient) async throws -> Ledger {
        var ledger = Ledger()
        for user in 0..<3 {
            let email = "kill-\(user)@example.com"
            let registered = try await client.send("POST", "/auth/register", json: client.credentials(email, password))
            try #require(registered.status == 201)
            for _ in 0..<(user < 2 ? 3 : 6) {
                let login = try await client.send("POST", "/auth/login", json: client.credentials(email, password))
                try #require(login.status == 200)
                let refresh = try #require(login.refreshToken)
                let access = try #require(login.accessToken)
                if user < 2 {
                    ledger.chains.append((try sessionID(of: access), [refresh]))
                } else {
                    ledger.loggedOut.append((refresh, access))
                }
            }
        }
        return ledger
    }

    /// Two clients of the session present its last acknowledged token at the same time, over and over, until
    /// the server goes away: one rotates it, the other converges on the same successor.
    static func refreshLoop(_ client: ChildClient, _ ledger: Recorder, _ index: Int) async {
        while true {
            guard let token = ledger.withLock({ $0.chains[index].tokens.last }) else { return }
            async let first = try? client.refresh(token)
            async let second = try? client.refresh(token)
            let answers = await [first, second].compactMap { $0 }
            let successors = Set(answers.compactMap(\.refreshToken))
            guard answers.allSatisfy({ $0.status == 200 }), successors.count <= 1 else {
                let statuses = answers.map(\.status)
                ledger.withLock {
                    $0.surprises.append("racing refreshes answered \(statuses), \(successors.count) tokens")
                }
                return
            }
            guard let next = successors.first else { return }
            ledger.withLock { $0.chains[index].tokens.append(next) }
            // A client whose request died with the server is done.
            if answers.count < 2 { return }
        }
    }

    /// Registers new users one after another until the server goes away.
    static func registrationLoop(_ client: ChildClient, _ ledger: Recorder, round: Int) async {
        for number in 0... {
            let email = "new-\(round)-\(number)@example.com"
            guard
                let answer = try? await client.send(
                    "POST", "/auth/register", json: client.credentials(email, password))
            else { return }
            guard answer.status == 201 else {
                ledger.withLock { $0.surprises.append("register answered \(answer.status)") }
                return
            }
            ledger.withLock { $0.registered.append(email) }
        }
    }

    /// Logs out the given sessions one after another until done or the server goes away.
    static func logoutLoop(_ client: ChildClient, _ ledger: Recorder, _ sessions: [(refresh: String, access: String)])
        async
    {
        for session in sessions {
            guard
                let answer = try? await client.send(
                    "POST", "/auth/logout", bearer: session.access, json: #"{"refreshToken":"\#(session.refresh)"}"#)
            else { return }
            guard answer.status == 204 else {
                ledger.withLock { $0.surprises.append("logout answered \(answer.status)") }
                return
            }
            ledger.withLock { $0.loggedOut.append(session) }
        }
    }

    /// The last acknowledged token is live, or converges on the successor committed at the kill; it rotates at
    /// most once; the token it leads to is live; its predecessor is refused (and that reuse revokes the session).
    static func expectOneLiveToken(_ client: ChildClient, _ tokens: [String]) async throws {
        let last = try #require(tokens.last)
        let firstAnswer = try await client.refresh(last)
        #expect(firstAnswer.status == 200, "the last acknowledged refresh token must still work")
        let live = try #require(firstAnswer.refreshToken)
        let secondAnswer = try await client.refresh(last)
        #expect(secondAnswer.status == 200)
        #expect(secondAnswer.refreshToken == live, "the last acknowledged token rotated twice")
        let next = try await client.refresh(live)
        #expect(next.status == 200)
        let newest = try #require(next.refreshToken)
        #expect(newest != live)
        guard tokens.count >= 2 else { return }
        #expect(try await client.refresh(tokens[tokens.count - 2]).status == 401, "a spent token is live again")
        #expect(try await client.refresh(newest).status == 401, "reuse did not revoke the session")
    }

    /// `PRAGMA integrity_check` must say ok; returns the rotation counter of each session, in order.
    static func inspect(_ database: URL, sessionIDs: [String]) throws -> [Int64] {
        let store = try Database(configuration: .init(path: database.path))
        defer { store.close() }
        return try store.read { (connection: Connection) throws(StoreError) -> [Int64] in
            #expect(try connection.queryOne("PRAGMA integrity_check")?.string(0) == "ok")
            var counters: [Int64] = []
            for id in sessionIDs {
                counters.append(
                    try connection.queryOne("SELECT counter FROM sessions WHERE id = ?", [.text(id)])?.int64(0) ?? -1)
            }
            return counters
        }
    }

    /// The `sid` claim of an access token, decoded with Foundation.
    static func sessionID(of accessToken: String) throws -> String {
        let parts = accessToken.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let payload = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64)))
        return try #require((payload as? [String: Any])?["sid"] as? String)
    }
}
