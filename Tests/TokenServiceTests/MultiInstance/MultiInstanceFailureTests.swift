import Foundation
import HTTPServerTesting
import PostgresTesting
import Testing
import TokenServiceTesting

/// Two real `tokenvend serve` processes on one PostgreSQL database under a client load, when one of them is
/// killed and when PostgreSQL itself goes away and comes back.
@Suite(
    "two instances under load: kill -9 and a PostgreSQL restart", .tags(.integration), .timeLimit(.minutes(3)),
    .serialized)
struct MultiInstanceFailureTests {
    static let password = InstancePair.userPassword

    @Test("kill -9 of A under load: B keeps serving, and every registration and rotation either acknowledged is kept")
    func killOneInstanceUnderLoad() async throws {
        var settings = InstancePair.Settings()
        // Longer than the test: a rotation committed on A but never answered converges instead of being reuse.
        settings.reuseGraceSeconds = 120
        let pair = try await InstancePair(settings)
        let (a, b) = (pair.a.client, pair.b.client)
        let ledger = LoadLedger()
        try await Self.prepareChains(ledger, clients: [a, a, b, b])

        let killed = try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in [a, a, b, b].enumerated() {
                group.addTask { await LoadLedger.refreshLoop(client, ledger, index, allowed: []) }
            }
            for client in [a, b] {
                group.addTask {
                    await LoadLedger.registrationLoop(client, ledger, password: Self.password, allowed: [])
                }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 400...800)))
            ledger.withLock { _ = $0.killed.insert("A") }
            pair.a.stop(with: SIGKILL)
            let killedAt = ContinuousClock.now
            try await Task.sleep(for: .seconds(1))
            ledger.withLock { $0.stopped = true }
            try await group.waitForAll()
            return killedAt
        }
        let seen = ledger.withLock { $0 }
        #expect(seen.surprises.isEmpty, "\(seen.surprises.prefix(5))")
        let servedByBAfterKill = seen.outcomes.filter { $0.instance == "B" && $0.at > killed && $0.status < 300 }
        #expect(servedByBAfterKill.count >= 5, "B answered only \(servedByBAfterKill.count) requests after A died")
        let acknowledgedByA = seen.registered.filter { $0.instance == "A" }.count
        #expect(acknowledgedByA > 0, "A acknowledged nothing before it was killed: the test proved nothing")

        // Every registration either instance acknowledged is there: the user logs in through B.
        for (email, instance) in seen.registered {
            let login = try await b.login(email, Self.password)
            #expect(login.status == 200, "\(email), registered through \(instance), cannot log in")
        }
        // Every acknowledged rotation is there: the last acknowledged token refreshes through B (a rotation A
        // committed but never answered converges on the same successor within the grace window).
        for chain in seen.chains {
            let last = try #require(chain.tokens.last)
            let answer = try await b.refresh(last)
            #expect(answer.status == 200, "chain on \(chain.instance): its last acknowledged token is refused")
            if chain.tokens.count >= 2, let next = answer.refreshToken {
                #expect(try await b.refresh(next).status == 200)
            }
        }
        print(
            "kill -9 of A: \(seen.registered.count) registrations (\(acknowledgedByA) by A) and "
                + "\(seen.chains.map { $0.tokens.count - 1 }.reduce(0, +)) rotations acknowledged; "
                + "B answered \(servedByBAfterKill.count) requests after the kill")
        #expect(!pair.logs().contains(InstancePair.databasePassword))
    }

    @Test(
        "PostgreSQL down under load: 503 with Retry-After and no hang, /readyz 503 then 200, both serve again unrestarted"
    )
    func databaseRestartUnderLoad() async throws {
        var settings = InstancePair.Settings()
        settings.reuseGraceSeconds = 120
        let pair = try await InstancePair(settings)
        let (a, b) = (pair.a.client, pair.b.client)
        let processes = (pair.a.process.processIdentifier, pair.b.process.processIdentifier)
        let ledger = LoadLedger()
        try await Self.prepareChains(ledger, clients: [a, b, a, b])

        let (down, up) = try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in [a, b, a, b].enumerated() {
                group.addTask { await LoadLedger.refreshLoop(client, ledger, index, allowed: [503]) }
            }
            for client in [a, b] {
                group.addTask {
                    await LoadLedger.registrationLoop(client, ledger, password: Self.password, allowed: [503])
                }
                group.addTask { await Self.readinessLoop(client, ledger) }
            }
            try await Task.sleep(for: .milliseconds(500))
            try await RawHTTP.offPool { try TestPostgres.control("stop") }
            let down = ContinuousClock.now
            // Whatever happens meanwhile, the cluster comes back for the tests after this one.
            try? await Task.sleep(for: .seconds(3))
            try await RawHTTP.offPool { try TestPostgres.control("start") }
            let up = ContinuousClock.now
            // Both recover by themselves: /readyz 200 again within 20 s of the start.
            for client in [a, b] {
                while try await client.send("GET", "/readyz").status != 200 {
                    try #require(ContinuousClock.now - up < .seconds(20), "\(client.name) did not become ready")
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            try await Task.sleep(for: .seconds(1))
            ledger.withLock { $0.stopped = true }
            try await group.waitForAll()
            return (down, up)
        }
        let seen = ledger.withLock { $0 }
        #expect(seen.surprises.isEmpty, "\(seen.surprises.prefix(5))")
        let slowest = seen.outcomes.map(\.duration).max() ?? .zero
        #expect(slowest < .seconds(10), "a request took \(slowest)")
        let refused = seen.outcomes.filter { $0.status == 503 }
        #expect(refused.allSatisfy { $0.retryAfter != nil }, "a 503 without Retry-After")
        for name in ["A", "B"] {
            let during = seen.outcomes.filter { $0.instance == name && $0.at > down && $0.at < up }
            #expect(during.contains { $0.path == "/readyz" && $0.status == 503 }, "\(name): /readyz never 503")
            #expect(
                during.contains { $0.path != "/readyz" && $0.status == 503 },
                "\(name) answered no request with 503 while PostgreSQL was down")
            let after = seen.outcomes.filter { $0.instance == name && $0.at > up }
            #expect(after.contains { $0.path == "/readyz" && $0.status == 200 })
        }

        // Both serve again, as the same processes: a new user, a login, a rotation, on each.
        #expect(pair.a.process.isRunning && pair.b.process.isRunning)
        #expect((pair.a.process.processIdentifier, pair.b.process.processIdentifier) == processes)
        for client in [a, b] {
            let email = "after-\(client.name.lowercased())-\(UUID().uuidString.prefix(8))@example.com"
            #expect(try await client.register(email, Self.password).status == 201)
            let login = try await client.login(email, Self.password)
            #expect(login.status == 200)
            #expect(try await client.refresh(try #require(login.refreshToken)).status == 200)
        }
        // Every acknowledged rotation survived the restart.
        for chain in seen.chains {
            #expect(try await a.refresh(try #require(chain.tokens.last)).status == 200)
        }
        // And revocation is immediate across instances again (A listens for notifications anew).
        let email = "revoke-\(UUID().uuidString.prefix(8))@example.com"
        #expect(try await b.register(email, Self.password).status == 201)
        let login = try await b.login(email, Self.password)
        let access = try #require(login.accessToken)
        #expect(try await a.me(access).status == 200)
        #expect(try await b.send("POST", "/auth/logout?scope=local", bearer: access).status == 204)
        try await Task.sleep(for: .milliseconds(10))
        #expect(try await a.me(access).status == 401, "A still accepted a session B logged out")
        let logs = pair.logs()
        #expect(!logs.contains(InstancePair.databasePassword))
        print(
            "PostgreSQL down \(up - down): \(refused.count) answers 503, slowest request \(slowest), "
                + "\(seen.outcomes.count) requests in all")
    }

    /// Registers one user per chain and logs it in through the chain's instance.
    static func prepareChains(_ ledger: LoadLedger, clients: [InstanceClient]) async throws {
        for client in clients {
            let email = "chain-\(UUID().uuidString.prefix(8))@example.com"
            #expect(try await client.register(email, password).status == 201)
            let login = try await client.login(email, password)
            try #require(login.status == 200)
            let chain = LoadLedger.Chain(
                instance: client.name, tokens: [try #require(login.refreshToken)],
                access: try #require(login.accessToken))
            ledger.withLock { $0.chains.append(chain) }
        }
    }

    /// Polls `GET /readyz` every 100 ms until stopped, recording each answer.
    static func readinessLoop(_ client: InstanceClient, _ ledger: LoadLedger) async {
        while !ledger.isStopped {
            do {
                let answer = try await client.send("GET", "/readyz")
                ledger.record(client, "/readyz", answer)
                if answer.status != 200 && answer.status != 503 {
                    ledger.withLock { $0.surprises.append("\(client.name) /readyz answered \(answer.status)") }
                }
            } catch {
                if ledger.failed(client, "/readyz", error) { return }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
