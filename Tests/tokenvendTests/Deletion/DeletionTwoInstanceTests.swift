import Foundation
import Testing
import TokenClientTesting

/// Two `tokenvend serve` processes on one PostgreSQL database (`scripts/with-postgres.sh`): an account deleted
/// through one is refused by the other at once (the deletion notifies every instance's session cache).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DeletionTwoInstanceTests {
    @Test("deleted through A: its access tokens get 401 and its refresh tokens invalid_grant on B at once")
    func deletedEverywhere() async throws {
        let fixture = try await DeletionServerFixture(postgres: true)
        let configuration = try fixture.configuration()
        let a = try await ServeProcess.start(configuration, name: "A", folder: fixture.folder.url)
        defer { a.stop(with: SIGKILL) }
        let b = try await ServeProcess.start(configuration, name: "B", folder: fixture.folder.url)
        defer { b.stop(with: SIGKILL) }
        let (onA, onB) = (ServeClient(port: a.port), ServeClient(port: b.port))
        let email = "leaving-\(UUID().uuidString.prefix(8))@example.com"
        try await onA.register(email, DeletionServerFixture.password)
        let password = DeletionServerFixture.password
        let loginA = try await onA.post("/auth/login", ["email": email, "password": password])
        let loginB = try await onB.post("/auth/login", ["email": email, "password": password])
        let (accessA, refreshA) = (try #require(loginA.accessToken), try #require(loginA.refreshToken))
        let (accessB, refreshB) = (try #require(loginB.accessToken), try #require(loginB.refreshToken))
        // B has checked both sessions: whatever it caches, it caches now.
        #expect(try await onB.send("GET", "/auth/me", bearer: accessA).status == 200)
        #expect(try await onB.send("GET", "/auth/me", bearer: accessB).status == 200)

        let wrong = try await onA.deleteAccount(accessA, password: "not the password at all")
        #expect(wrong.status == 401 && wrong.errorCode == "reauthentication_required")
        let deleted = try await onA.deleteAccount(accessA, password: password)
        #expect(deleted.status == 200)
        // The change notification reaches B within milliseconds; without it, B's cache would keep answering from
        // what it read for up to its 1 s lifetime. So B must refuse within 900 ms: polled, not slept, so a slow
        // machine gets all of that bound and a fast one none of it.
        let deadline = ContinuousClock.now + .milliseconds(900)
        while try await onB.send("GET", "/auth/me", bearer: accessA).status != 401 {
            try #require(ContinuousClock.now < deadline, "B accepted the deleted account's token for 900 ms")
            try await Task.sleep(for: .milliseconds(5))
        }
        for access in [accessA, accessB] {
            let me = try await onB.send("GET", "/auth/me", bearer: access)
            #expect(me.status == 401, "B still accepted an access token of the deleted account")
        }
        for refresh in [refreshB, refreshA] {
            let answer = try await onB.post("/auth/refresh", ["refreshToken": refresh])
            #expect(answer.status == 401 && answer.errorCode == "invalid_grant")
        }
        #expect(try await onA.send("GET", "/auth/me", bearer: accessB).status == 401)
        let login = try await onB.post("/auth/login", ["email": email, "password": password])
        #expect(login.status == 401 && login.errorCode == "invalid_credentials")
        // The address registers again, on either instance.
        try await onB.register(email, password)
    }
}
