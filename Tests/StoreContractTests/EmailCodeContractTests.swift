import Foundation
import Store
import StoreTesting
import Testing

/// The email codes of `EmailStoring` give the same answers on SQLite and PostgreSQL: a new code replaces the old
/// one and its tries, the right code is accepted once, wrong codes count and the fifth kills it, an expired code is
/// missing, concurrent presentations are decided one at a time, and a code is stored only with its message.
@Suite(.timeLimit(.minutes(1))) struct EmailCodeContractTests {
    static let maxAttempts = 5

    /// A code of `purpose` for `subject` with `hash`, issued at `seconds` after the epoch for 600 s.
    static func code(
        _ hash: String, purpose: EmailCodePurpose = .passwordReset, subject: String = "ada@example.com",
        userID: String? = nil, at seconds: Double = 0
    ) -> EmailCode {
        EmailCode(
            purpose: purpose, subject: subject, hash: hash, userID: userID, email: "ada@example.com",
            createdAt: Fixture.at(seconds), expiresAt: Fixture.at(seconds + 600))
    }

    /// A message queued at `seconds` after the epoch.
    static func message(_ id: String = UUID().uuidString.lowercased(), at seconds: Double = 0) -> OutboxMessage {
        OutboxMessage(
            id: id, kind: "password_reset", recipient: "ada@example.com", body: Array("sealed \(id)".utf8),
            createdAt: Fixture.at(seconds))
    }

    /// `code` as stored after `attempts` wrong tries.
    static func counted(_ code: EmailCode, _ attempts: Int) -> EmailCode {
        var counted = code
        counted.attempts = attempts
        return counted
    }

    static func redeem(
        _ store: any StoreBackend, _ hash: String, purpose: EmailCodePurpose = .passwordReset,
        subject: String = "ada@example.com", at seconds: Double = 1
    ) async throws -> EmailCodeCheck {
        try await store.email.redeemCode(
            purpose: purpose, subject: subject, hash: hash, maxAttempts: maxAttempts, now: Fixture.at(seconds))
    }

    @Test("the right code is accepted once, with what was stored; then it is missing", arguments: Backend.allCases)
    func acceptedOnce(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let code = Self.code("h-right", userID: ada.id)
            try await store.email.issueCode(code, message: Self.message())
            #expect(try await Self.redeem(store, "h-right") == .accepted(code))
            #expect(try await Self.redeem(store, "h-right") == .missing)
            #expect(try await Self.redeem(store, "h-other") == .missing)
        }
    }

    @Test(
        "wrong codes count; the fifth kills the code, and the right one is refused after it",
        arguments: Backend.allCases)
    func wrongTries(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.issueCode(Self.code("h-right"), message: Self.message())
            for left in [4, 3, 2, 1] {
                #expect(try await Self.redeem(store, "h-wrong") == .rejected(attemptsLeft: left))
            }
            #expect(try await Self.redeem(store, "h-wrong") == .rejected(attemptsLeft: 0))
            #expect(try await Self.redeem(store, "h-right") == .missing)
        }
    }

    @Test("a wrong try leaves the right code usable, with its tries counted", arguments: Backend.allCases)
    func wrongThenRight(backend: Backend) async throws {
        try await backend.with { store in
            let code = Self.code("h-right")
            try await store.email.issueCode(code, message: Self.message())
            #expect(try await Self.redeem(store, "h-wrong") == .rejected(attemptsLeft: 4))
            #expect(try await Self.redeem(store, "h-wrong") == .rejected(attemptsLeft: 3))
            #expect(try await Self.redeem(store, "h-right") == .accepted(Self.counted(code, 2)))
        }
    }

    @Test("a new code replaces the old one: the old is refused and the tries start again", arguments: Backend.allCases)
    func replaces(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.issueCode(Self.code("h-old"), message: Self.message())
            for left in [4, 3, 2, 1] {
                #expect(try await Self.redeem(store, "h-wrong") == .rejected(attemptsLeft: left))
            }
            let new = Self.code("h-new", at: 10)
            try await store.email.issueCode(new, message: Self.message(at: 10))
            #expect(try await Self.redeem(store, "h-old", at: 11) == .rejected(attemptsLeft: 4))
            #expect(try await Self.redeem(store, "h-new", at: 11) == .accepted(Self.counted(new, 1)))
            #expect(try await store.email.listOutbox().count == 2, "each code queued its own message")
        }
    }

    @Test("codes of another purpose or subject are separate", arguments: Backend.allCases)
    func separateKeys(backend: Backend) async throws {
        try await backend.with { store in
            let reset = Self.code("h-reset")
            let signIn = Self.code("h-sign-in", purpose: .signIn)
            let bob = Self.code("h-bob", subject: "bob@example.com")
            for code in [reset, signIn, bob] { try await store.email.issueCode(code, message: Self.message()) }
            #expect(try await Self.redeem(store, "h-sign-in") == .rejected(attemptsLeft: 4))
            #expect(try await Self.redeem(store, "h-sign-in", purpose: .signIn) == .accepted(signIn))
            #expect(try await Self.redeem(store, "h-bob", subject: "bob@example.com") == .accepted(bob))
            #expect(try await Self.redeem(store, "h-reset") == .accepted(Self.counted(reset, 1)))
        }
    }

    @Test("an expired code is missing, right or wrong, and is deleted", arguments: Backend.allCases)
    func expired(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.issueCode(Self.code("h-right"), message: Self.message())
            #expect(try await Self.redeem(store, "h-wrong", at: 600) == .missing)
            #expect(try await Self.redeem(store, "h-right", at: 599) == .missing, "the expired row was deleted")
            try await store.email.issueCode(Self.code("h-right"), message: Self.message())
            #expect(try await Self.redeem(store, "h-right", at: 600) == .missing)
            #expect(try await Self.redeem(store, "h-right", at: 599.999) == .missing)
        }
    }

    @Test("concurrent presentations of the right code: exactly one is accepted", arguments: Backend.allCases)
    func concurrentRight(backend: Backend) async throws {
        try await backend.withTwo { first, second in
            for round in 0..<5 {
                let code = Self.code("h-\(round)", at: Double(round))
                try await first.email.issueCode(code, message: Self.message(at: Double(round)))
                let checks = try await withThrowingTaskGroup(of: EmailCodeCheck.self) { group in
                    for index in 0..<8 {
                        let store = index.isMultiple(of: 2) ? first : second
                        group.addTask { try await Self.redeem(store, "h-\(round)", at: Double(round) + 1) }
                    }
                    var checks: [EmailCodeCheck] = []
                    for try await check in group { checks.append(check) }
                    return checks
                }
                #expect(checks.filter { $0 == .accepted(code) }.count == 1)
                #expect(checks.filter { $0 == .missing }.count == 7)
            }
        }
    }

    @Test("concurrent wrong codes are each counted once: one of five kills the code", arguments: Backend.allCases)
    func concurrentWrong(backend: Backend) async throws {
        try await backend.withTwo { first, second in
            try await first.email.issueCode(Self.code("h-right"), message: Self.message())
            let checks = try await withThrowingTaskGroup(of: EmailCodeCheck.self) { group in
                for index in 0..<7 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await Self.redeem(store, "h-wrong-\(index)") }
                }
                var checks: [EmailCodeCheck] = []
                for try await check in group { checks.append(check) }
                return checks
            }
            let left = checks.compactMap { check -> Int? in
                if case .rejected(let left) = check { return left }
                return nil
            }
            #expect(left.sorted() == [0, 1, 2, 3, 4])
            #expect(checks.filter { $0 == .missing }.count == 2)
            #expect(try await Self.redeem(second, "h-right") == .missing)
        }
    }

    @Test("issueCode writes the code and its message together, or neither", arguments: Backend.allCases)
    func issueIsAtomic(backend: Backend) async throws {
        try await backend.with { store in
            let kept = Self.code("h-kept")
            try await store.email.issueCode(kept, message: Self.message("m-1"))
            #expect(try await store.email.listOutbox().map(\.id) == ["m-1"])
            // The message id is taken: the insert fails, and the replacing code goes with it.
            await #expect(throws: StoreError.constraint(.primaryKey)) {
                try await store.email.issueCode(Self.code("h-lost", at: 5), message: Self.message("m-1", at: 5))
            }
            // A code for another subject fails with its message too.
            await #expect(throws: StoreError.constraint(.primaryKey)) {
                try await store.email.issueCode(
                    Self.code("h-bob", subject: "bob@example.com"), message: Self.message("m-1", at: 5))
            }
            #expect(try await Self.redeem(store, "h-bob", subject: "bob@example.com") == .missing)
            #expect(try await Self.redeem(store, "h-lost", at: 6) == .rejected(attemptsLeft: 4))
            #expect(try await Self.redeem(store, "h-kept", at: 6) == .accepted(Self.counted(kept, 1)))
            #expect(try await store.email.listOutbox().map(\.id) == ["m-1"])
            #expect(try await store.email.pendingOutboxCount() == 1)
        }
    }

    @Test(
        "a code for an unknown account is refused, and one goes with its deleted account", arguments: Backend.allCases)
    func owner(backend: Backend) async throws {
        try await backend.with { store in
            await #expect(throws: StoreError.notFound) {
                try await store.email.issueCode(Self.code("h", userID: "missing"), message: Self.message())
            }
            #expect(try await store.email.listOutbox().isEmpty, "nor its message")
            let ada = try await Fixture.user(store)
            try await store.email.issueCode(
                Self.code("h-verify", purpose: .verification, subject: ada.id, userID: ada.id), message: Self.message())
            try await Fixture.deleteUser(ada.id, from: store)
            #expect(try await Self.redeem(store, "h-verify", purpose: .verification, subject: ada.id) == .missing)
        }
    }

    @Test("the prune deletes codes expired by then, and only those", arguments: Backend.allCases)
    func prune(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.issueCode(Self.code("h-old"), message: Self.message())
            let new = Self.code("h-new", subject: "bob@example.com", at: 300)
            try await store.email.issueCode(new, message: Self.message())
            #expect(try await store.email.pruneEmail(expiredBy: Fixture.at(599), failedBefore: Fixture.epoch) == 0)
            #expect(try await store.email.pruneEmail(expiredBy: Fixture.at(600), failedBefore: Fixture.epoch) == 1)
            #expect(try await store.email.pruneEmail(expiredBy: Fixture.at(600), failedBefore: Fixture.epoch) == 0)
            #expect(try await Self.redeem(store, "h-new", subject: "bob@example.com", at: 600) == .accepted(new))
        }
    }
}
