import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// `UserStoring.deleteUser` gives the same answers on SQLite and PostgreSQL (issue 33): everything that names the
/// account or its email goes in one transaction, a record without personal data stays, each sealed provider token
/// becomes a revocation job in the outbox, the address can register again, and the account's sessions answer absent
/// at once, also through the session status caches of this store and of another on the same database.
@Suite(.timeLimit(.minutes(2))) struct AccountDeletionContractTests {
    static let sealed: [UInt8] = [0, 1, 2, 0xfe, 0xff, 42]

    /// An outbox message `id` to `recipient`, queued `seconds` after the epoch.
    static func message(_ id: String, to recipient: String, at seconds: Double = 0) -> OutboxMessage {
        OutboxMessage(
            id: id, kind: "verification", recipient: recipient, body: Array("sealed \(id)".utf8),
            createdAt: Fixture.at(seconds))
    }

    /// An email code of `purpose` under `subject`, sent to `email`.
    static func code(
        _ purpose: EmailCodePurpose, subject: String, userID: String?, email: String
    ) -> EmailCode {
        EmailCode(
            purpose: purpose, subject: subject, hash: "h-\(purpose.rawValue)", userID: userID, email: email,
            createdAt: Fixture.at(0), expiresAt: Fixture.at(600))
    }

    /// Whether a code of `purpose` under `subject` is still stored (presenting a wrong hash: `.missing` when not).
    static func codeStored(_ store: any StoreBackend, _ purpose: EmailCodePurpose, subject: String) async throws
        -> Bool
    {
        try await store.email.redeemCode(
            purpose: purpose, subject: subject, hash: "wrong", maxAttempts: 100, now: Fixture.at(1)) != .missing
    }

    /// A user whose Apple identity holds `sealed`.
    static func userWithSealedToken(_ store: any StoreBackend) async throws -> User {
        let user = try await Fixture.user(store)
        try await store.identities.link(provider: "apple", subject: "a", userID: user.id, email: nil, now: .now)
        #expect(
            try await store.identities.setSealedRefreshToken(
                provider: "apple", subject: "a", userID: user.id, sealed: sealed))
        return user
    }

    @Test(
        "deleting a user removes everything that names it or its email, keeps the record, and queues revocations",
        arguments: Backend.allCases)
    func deletesEverything(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let email = try #require(ada.email)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            let first = try await Fixture.session(store, ada)
            let second = try await Fixture.session(store, ada, at: 1)
            let bobs = try await Fixture.session(store, bob)
            try await store.users.setCustomerID(userID: ada.id, key: "crm", value: "c-1")
            try await store.identities.link(
                provider: "apple", subject: "a-1", userID: ada.id, email: email, now: Fixture.at(2))
            try await store.identities.link(
                provider: "google", subject: "g-1", userID: ada.id, email: email, now: Fixture.at(3))
            try await store.identities.link(
                provider: "apple", subject: "b-1", userID: bob.id, email: nil, now: Fixture.at(3))
            #expect(
                try await store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "a-1", userID: ada.id, sealed: Self.sealed))
            #expect(
                try await store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "b-1", userID: bob.id, sealed: [9]))
            // Codes: one naming the user, one kept under the address only, one for bob.
            try await store.email.issueCode(
                Self.code(.verification, subject: ada.id, userID: ada.id, email: email),
                message: Self.message("m-verify", to: email))
            try await store.email.issueCode(
                Self.code(.signIn, subject: email, userID: nil, email: email), message: nil)
            try await store.email.issueCode(
                Self.code(.passwordReset, subject: "bob@example.com", userID: bob.id, email: "bob@example.com"),
                message: Self.message("m-bob", to: "bob@example.com", at: 1))
            // A message to ada's address given up already, and one claimed by a sender right now.
            try await store.email.enqueue(Self.message("m-failed", to: email, at: 2))
            try await store.email.failOutbox(id: "m-failed", lastError: "550", now: Fixture.at(3))
            try await store.email.enqueue(Self.message("m-held", to: email, at: 3))
            let held = try await store.email.claimOutbox(
                owner: "sender", limit: 10, lease: .seconds(10), now: Fixture.at(4))
            #expect(held.map(\.id).sorted() == ["m-bob", "m-held", "m-verify"])
            try await store.oauth.saveCode(
                AuthorizationCode(
                    codeHash: "c-ada", userID: ada.id, provider: "google", redirectURI: "app:/cb", codeChallenge: "x",
                    created: false, createdAt: Fixture.at(4), expiresAt: Fixture.at(600)))

            // PostgreSQL keeps shared rate-limit counters, the failed logins under the address among them.
            let window = Duration.seconds(3600)
            for key in [email, "bob@example.com"] {
                _ = try await store.rateLimits?.add(1, bucket: "login-failures", key: key, window: window, now: .now)
            }

            let record = try await store.users.deleteUser(userID: ada.id, method: .selfService, now: Fixture.at(50))

            #expect(record == DeletedAccount(userID: ada.id, deletedAt: Fixture.at(50), method: .selfService))
            #expect(try await store.users.deletedAccounts() == [record])
            #expect(try await store.users.find(byID: ada.id) == nil)
            #expect(try await store.users.find(byEmail: email) == nil)
            #expect(try await store.users.list().map(\.id) == [bob.id])
            #expect(try await store.users.customerIDs(userID: ada.id, emailAsRegistered: true) == [:])
            for session in [first, second] {
                #expect(try await store.sessions.find(sessionID: session.id) == nil)
                #expect(try await store.sessions.status(sessionID: session.id) == nil)
            }
            #expect(try await store.identities.identities(userID: ada.id).isEmpty)
            #expect(try await store.identities.user(provider: "apple", subject: "a-1") == nil)
            #expect(try await store.identities.user(provider: "google", subject: "g-1") == nil)
            #expect(try await !Self.codeStored(store, .verification, subject: ada.id))
            #expect(try await !Self.codeStored(store, .signIn, subject: email))
            #expect(try await store.oauth.redeemCode(codeHash: "c-ada", now: Fixture.at(60)) == .unknown)
            if let counters = store.rateLimits {
                #expect(
                    try await counters.count(bucket: "login-failures", key: email, window: window, now: .now).current
                        == 0)
                #expect(
                    try await counters.count(
                        bucket: "login-failures", key: "bob@example.com", window: window, now: .now
                    ).current == 1)
            }
            // Bob keeps everything.
            #expect(try await store.sessions.status(sessionID: bobs.id)?.revokedAt == nil)
            #expect(try await store.identities.identities(userID: bob.id).map(\.sealedRefreshToken) == [[9]])
            #expect(try await Self.codeStored(store, .passwordReset, subject: "bob@example.com"))
            // The outbox: bob's message, and one revocation job for ada's sealed Apple token (none for Google's
            // identity, which holds no token). Nothing is addressed to ada's email any more.
            let rows = try await store.email.listOutbox()
            #expect(!rows.contains { $0.recipient == email })
            #expect(rows.filter { $0.kind == "verification" }.map(\.id) == ["m-bob"])
            let jobs = rows.filter { $0.kind == OutboxJobKind.providerTokenRevocation }
            #expect(jobs.count == 1)
            #expect(jobs.first?.recipient == "apple" && jobs.first?.createdAt == Fixture.at(50))
            #expect(jobs.first?.nextAttemptAt == Fixture.at(50) && jobs.first?.failedAt == nil)
            // The sender that held a deleted message finishes without finding it.
            try await store.email.completeOutbox(id: "m-held")
            let claimed = try await store.email.claimOutbox(
                owner: "sender", limit: 10, lease: .seconds(60), now: Fixture.at(50))
            let job = try #require(claimed.first { $0.kind == OutboxJobKind.providerTokenRevocation })
            #expect(job.body == Self.sealed && job.recipient == "apple" && job.attempts == 0)
            #expect(UUID(uuidString: job.id) != nil && job.id == job.id.lowercased(), "a lowercase UUID, as others")
        }
    }

    @Test("a deleted or unknown user is not found, and a second deletion changes nothing", arguments: Backend.allCases)
    func notFoundTwice(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Self.userWithSealedToken(store)
            let record = try await store.users.deleteUser(userID: ada.id, method: .emailCode, now: Fixture.at(10))
            await #expect(throws: StoreError.notFound) {
                try await store.users.deleteUser(userID: ada.id, method: .operator, now: Fixture.at(20))
            }
            await #expect(throws: StoreError.notFound) {
                try await store.users.deleteUser(userID: "missing", method: .operator, now: Fixture.at(20))
            }
            #expect(try await store.users.deletedAccounts() == [record], "the first record, unchanged")
            #expect(try await store.email.listOutbox().count == 1, "one revocation, not two")
        }
    }

    @Test(
        "concurrent deletions of one user: one succeeds, the others are not found, one revocation is queued",
        arguments: Backend.allCases)
    func concurrentDeletions(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Self.userWithSealedToken(store)
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        do {
                            try await store.users.deleteUser(
                                userID: ada.id, method: .operator, now: Fixture.at(Double(index)))
                            return true
                        } catch {
                            #expect(error as? StoreError == .notFound)
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await store.users.deletedAccounts().count == 1)
            #expect(try await store.email.listOutbox().map(\.kind) == [OutboxJobKind.providerTokenRevocation])
        }
    }

    @Test(
        "the email registers again after deletion, as a new account; records are listed oldest first",
        arguments: Backend.allCases)
    func registersAgain(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let first = try await store.users.deleteUser(userID: ada.id, method: .operator, now: Fixture.at(30))
            let again = try await Fixture.user(store)
            #expect(again.id != ada.id && again.email == ada.email)
            #expect(try await store.users.find(byEmail: "ada@example.com")?.id == again.id)
            let session = try await Fixture.session(store, again, at: 31)
            #expect(try await store.sessions.status(sessionID: session.id)?.revokedAt == nil)
            // An account without an email is deleted as well.
            let anonymous = try await store.identities.createUser(
                id: "anon", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "s",
                now: Fixture.at(1)
            ).user
            let second = try await store.users.deleteUser(
                userID: anonymous.id, method: .appleNotification, now: Fixture.at(20))
            #expect(try await store.users.deletedAccounts() == [second, first])
            #expect(try await store.identities.user(provider: "apple", subject: "s") == nil)
        }
    }

    @Test(
        "the deleted sessions answer absent at once through this store's status cache and another store's",
        arguments: Backend.allCases)
    func sessionsEndEverywhere(backend: Backend) async throws {
        try await backend.withTwo { first, second in
            if let postgres = second as? PostgresStore {
                #expect(await UserEmailContractTests.eventually { postgres.changes.changeStamp() != nil }, "B listens")
            }
            let ada = try await Fixture.user(first)
            let session = try await Fixture.session(first, ada)
            // Both stores keep an answer (60-second lifetime: only a change ends it within the test).
            #expect(try await first.sessions.status(sessionID: session.id)?.isLive(at: Fixture.at(1)) == true)
            #expect(try await second.sessions.status(sessionID: session.id)?.isLive(at: Fixture.at(1)) == true)
            if case .mustWait = try second.sessions.immediateStatus(sessionID: session.id) {
                Issue.record("B kept no answer")
            }
            try await first.users.deleteUser(userID: ada.id, method: .selfService, now: Fixture.at(10))
            #expect(try await first.sessions.status(sessionID: session.id) == nil, "at once on the deleting store")
            if case .value(let kept) = try first.sessions.immediateStatus(sessionID: session.id) {
                #expect(kept == nil, "no live answer kept")
            }
            let read = try await first.sessions.statusAndCustomerIDs(
                sessionID: session.id, userID: ada.id, emailAsRegistered: false)
            #expect(read.status == nil)
            // SQLite: the shared commit counter moved before the call returned; PostgreSQL: the notification
            // reaches B's listener within its poll (100 ms), far inside B's 60-second cache lifetime.
            if second is PostgresStore {
                #expect(
                    await UserEmailContractTests.eventually {
                        (try? await second.sessions.status(sessionID: session.id)) == .some(nil)
                    })
            } else {
                #expect(try await second.sessions.status(sessionID: session.id) == nil)
            }
        }
    }

    @Test(
        "a sealed provider token is stored for its own link only, replaced, and read back with the identity",
        arguments: Backend.allCases)
    func sealedTokens(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            try await store.identities.link(provider: "apple", subject: "a", userID: ada.id, email: nil, now: .now)
            #expect(try await store.identities.identities(userID: ada.id).first?.sealedRefreshToken == nil)
            #expect(
                try await store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "a", userID: ada.id, sealed: Self.sealed))
            #expect(try await store.identities.identities(userID: ada.id).first?.sealedRefreshToken == Self.sealed)
            #expect(
                try await store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "a", userID: ada.id, sealed: Array(repeating: 7, count: 300)))
            #expect(
                try await store.identities.identities(userID: ada.id).first?.sealedRefreshToken
                    == Array(repeating: 7, count: 300))
            // Not linked to bob, unknown identity, unknown user: nothing stored.
            #expect(
                try await !store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "a", userID: bob.id, sealed: [1]))
            #expect(
                try await !store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "none", userID: ada.id, sealed: [1]))
            #expect(
                try await !store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "a", userID: "missing", sealed: [1]))
            #expect(
                try await store.identities.identities(userID: ada.id).first?.sealedRefreshToken
                    == Array(repeating: 7, count: 300))
            // Unlinked: the token goes with the link.
            #expect(try await store.identities.unlink(provider: "apple", subject: "a", userID: ada.id))
            try await store.identities.link(provider: "apple", subject: "a", userID: bob.id, email: nil, now: .now)
            #expect(try await store.identities.identities(userID: bob.id).first?.sealedRefreshToken == nil)
        }
    }

    @Test(
        "email forwarding is unknown until recorded, then follows the last notification, whoever the link",
        arguments: Backend.allCases)
    func forwarding(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.identities.link(provider: "apple", subject: "a", userID: ada.id, email: nil, now: .now)
            try await store.identities.link(provider: "google", subject: "g", userID: ada.id, email: nil, now: .now)
            func forwarding() async throws -> [Bool?] {
                try await store.identities.identities(userID: ada.id).sorted { $0.provider < $1.provider }
                    .map(\.emailForwarding)
            }
            #expect(try await forwarding() == [nil, nil])
            #expect(try await store.identities.setEmailForwarding(provider: "apple", subject: "a", forwards: false))
            #expect(try await forwarding() == [false, nil])
            #expect(try await store.identities.setEmailForwarding(provider: "apple", subject: "a", forwards: true))
            #expect(try await forwarding() == [true, nil])
            #expect(try await !store.identities.setEmailForwarding(provider: "apple", subject: "x", forwards: true))
            #expect(try await !store.identities.setEmailForwarding(provider: "other", subject: "a", forwards: true))
        }
    }
}
