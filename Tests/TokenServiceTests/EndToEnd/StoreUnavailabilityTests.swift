import Foundation
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// What clients see when the store fails the way a network database does (PostgreSQL's lock and pool timeouts,
/// an unreachable server, a status-cache miss), proven on a SQLite store made to fail (`FaultyStore`).
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct StoreUnavailabilityTests {
    @Test(
        "a refresh that meets a lock or pool timeout answers 503 unavailable with Retry-After: 1",
        arguments: [StoreError.Unavailability.lockTimeout, .timedOut])
    func refreshTimeout(reason: StoreError.Unavailability) async throws {
        try await FaultyServer.with { server in
            let login = try await server.signUp("ada@example.com")
            server.faults.update { $0.rotate = .unavailable(reason) }
            let refused = await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(login.refresh)"}"#)
            #expect(refused.status == 503)
            #expect(refused.errorCode == "unavailable")
            #expect(refused.headers["retry-after"] == "1")
            // Nothing was spent: the same token rotates once the row is free.
            server.faults.update { $0.rotate = nil }
            let retried = await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(login.refresh)"}"#)
            #expect(retried.status == 200)
        }
    }

    @Test("an unreachable database answers 503 with Retry-After: 2 on login, refresh, me and stream-token")
    func unreachable() async throws {
        try await FaultyServer.with { server in
            let login = try await server.signUp("ada@example.com")
            server.faults.update { $0.everything = .unavailable(.unreachable) }
            let bearer = ["Authorization": "Bearer \(login.access)"]
            let answers = [
                await server.request(
                    "POST", "/auth/login", json: #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#),
                await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(login.refresh)"}"#),
                await server.request("GET", "/auth/me", headers: bearer),
                await server.request("POST", "/stream-token", headers: bearer),
                await server.request("GET", "/auth/sessions", headers: bearer),
            ]
            for answer in answers {
                #expect(answer.status == 503)
                #expect(answer.errorCode == "unavailable")
                #expect(answer.headers["retry-after"] == "2")
            }
        }
    }

    @Test("SQLite's own conditions keep their Retry-After: 5 on writes and 1 on session checks")
    func sqliteConditions() async throws {
        try await FaultyServer.with { server in
            let login = try await server.signUp("ada@example.com")
            server.faults.update { $0.everything = .unavailable(.diskFull) }
            let refresh = await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(login.refresh)"}"#)
            #expect(refresh.status == 503)
            #expect(refresh.headers["retry-after"] == "5")
            let me = await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(login.access)"])
            #expect(me.status == 503)
            #expect(me.headers["retry-after"] == "1")
        }
    }

    @Test("me, stream-token and moss-token fall back to the async read when the store cannot answer at once")
    func mustWaitFallsBack() async throws {
        try await FaultyServer.with { server in
            let login = try await server.signUp("ada@example.com")
            let other = try await server.signUp("bob@example.com")
            server.faults.update { $0.mustWait = true }
            let bearer = ["Authorization": "Bearer \(login.access)"]
            let me = await server.request("GET", "/auth/me", headers: bearer)
            #expect(me.status == 200)
            // The caller's identity from the token (a self-registered email is unverified: not asserted).
            #expect((me.json["sub"] as? String)?.isEmpty == false && me.json["role"] as? String == "user")
            let stream = await server.request("POST", "/stream-token", headers: bearer)
            #expect(stream.status == 200)
            #expect(stream.json["token"] is String)
            // Moss is not configured: the session check still runs (and passes) before the 503.
            let moss = await server.request("GET", "/moss-token", headers: bearer)
            #expect(moss.status == 503)
            #expect(server.faults.current.asyncReads == 3)
            // A revoked session is refused on the async path too.
            let logout = await server.request(
                "POST", "/auth/logout", headers: ["Authorization": "Bearer \(other.access)"])
            #expect(logout.status == 204)
            let revoked = ["Authorization": "Bearer \(other.access)"]
            #expect(await server.request("GET", "/auth/me", headers: revoked).status == 401)
            #expect(await server.request("POST", "/stream-token", headers: revoked).status == 401)
            #expect(await server.request("GET", "/moss-token", headers: revoked).status == 401)
        }
    }

    @Test("the fast paths answer inline without an async read when the store has the session at hand")
    func inlineWhenAtHand() async throws {
        try await FaultyServer.with { server in
            let login = try await server.signUp("ada@example.com")
            let bearer = ["Authorization": "Bearer \(login.access)"]
            #expect(await server.request("GET", "/auth/me", headers: bearer).status == 200)
            #expect(await server.request("POST", "/stream-token", headers: bearer).status == 200)
            #expect(server.faults.current.asyncReads == 0)
        }
    }

    @Test(
        "readyz answers 503 with Retry-After and Cache-Control: no-store while the database is unreachable, 200 once back"
    )
    func readiness() async throws {
        try await FaultyServer.with { server in
            #expect(await server.request("GET", "/readyz").status == 200)
            server.faults.update { $0.ping = .unavailable(.unreachable) }
            let down = await server.request("GET", "/readyz")
            #expect(down.status == 503)
            #expect(down.headers["retry-after"] == "5")
            // A cache in front must not keep the failing answer, nor the healthy one after it.
            #expect(down.headers["cache-control"] == "no-store")
            server.faults.update { $0.ping = nil }
            #expect(await server.request("GET", "/readyz").status == 200)
        }
    }
}
