import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct SessionAccessTests {
    @Test("the one-statement stream-token read answers what the session and customer-id reads answer apart")
    func statusAndCustomerIDsMatchSeparateReads() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            let sessions = SessionStore(database: database)
            let ada = try users.create(
                email: "ada@example.com", passwordHash: Fixture.hash, emailVerifiedAt: Fixture.epoch, now: Fixture.epoch
            )
            let bob = try Fixture.user(database, email: "bob@example.com")
            let session = try sessions.create(
                userID: ada.id, userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: .seconds(100),
                maxLifetime: .seconds(1000))

            func expectSame(_ sessionID: String, _ userID: String, _ email: Bool) throws {
                let read = try sessions.statusAndCustomerIDs(
                    sessionID: sessionID, userID: userID, emailAsRegistered: email)
                #expect(read.status == (try sessions.status(sessionID: sessionID)))
                #expect(read.customerIDs == (try users.customerIDs(userID: userID, emailAsRegistered: email)))
            }

            let live = try sessions.statusAndCustomerIDs(sessionID: session.id, userID: ada.id)
            #expect(live.status?.userID == ada.id && live.status?.revokedAt == nil)
            #expect(
                live.status?.expiresAt == session.expiresAt && live.status?.refreshExpiresAt == session.refreshExpiresAt
            )
            #expect(live.customerIDs == ["registered": ada.id])
            let byEmail = try sessions.statusAndCustomerIDs(
                sessionID: session.id, userID: ada.id, emailAsRegistered: true)
            #expect(byEmail.customerIDs == ["registered": "ada@example.com"])
            try expectSame(session.id, ada.id, false)
            try expectSame(session.id, ada.id, true)

            // Explicit ids, an operator-set registered id, another user's ids, an unknown session or user.
            try users.setCustomerID(email: "ada@example.com", key: "crm", value: "CRM-1")
            try users.setCustomerID(email: "ada@example.com", key: "registered", value: "R-9")
            #expect(
                try sessions.statusAndCustomerIDs(sessionID: session.id, userID: ada.id, emailAsRegistered: true)
                    .customerIDs == ["crm": "CRM-1", "registered": "R-9"])
            try expectSame(session.id, ada.id, true)
            try expectSame(session.id, bob.id, false)
            let unknown = try sessions.statusAndCustomerIDs(sessionID: "no-such-session", userID: bob.id)
            #expect(unknown.status == nil && unknown.customerIDs == ["registered": bob.id])
            try expectSame("no-such-session", "no-such-user", true)

            // A revoked session reports its revocation time.
            _ = try sessions.revoke(sessionID: session.id, now: Fixture.epoch.addingTimeInterval(5))
            let revoked = try sessions.statusAndCustomerIDs(sessionID: session.id, userID: ada.id)
            #expect(revoked.status?.revokedAt == Fixture.epoch.addingTimeInterval(5))
            #expect(revoked.status?.isLive(at: Fixture.epoch.addingTimeInterval(6)) == false)
            try expectSame(session.id, ada.id, false)
        }
    }
}
