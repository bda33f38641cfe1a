import Foundation
import Store
import StoreTesting
import Testing

/// `PasskeyStoring` (issue 36) gives the same answers and errors on SQLite and PostgreSQL: challenges issued under
/// a cap and consumed once before they expire, each account's user handle set once, passkeys stored once per
/// credential id (every field read back), sign-up in one transaction, the counter rule, rename and delete only by
/// the owner, the last way in kept, and an account's passkeys deleted with it. (Races across two instances:
/// `PasskeyRaceContractTests`.)
@Suite(.timeLimit(.minutes(1))) struct PasskeyContractTests {
    /// A passkey of `userID` registered `seconds` after the epoch, never used.
    static func passkey(_ id: String, userID: String, at seconds: Double = 1, signCount: UInt32 = 0) -> Passkey {
        Passkey(
            credentialID: id, userID: userID, publicKey: [0xA5, 0x01, 0x02] + Array(id.utf8), algorithm: -7,
            signCount: signCount, backupEligible: true, backedUp: false, transports: ["internal", "hybrid"],
            name: "Passkey \(id)", createdAt: Fixture.at(seconds))
    }

    /// A challenge of `ceremony` expiring `seconds` after the epoch.
    static func challenge(
        _ hash: String, _ ceremony: PasskeyChallenge.Ceremony = .authentication, expiresAt seconds: Double = 300
    ) -> PasskeyChallenge {
        PasskeyChallenge(hash: hash, ceremony: ceremony, expiresAt: Fixture.at(seconds))
    }

    /// A user without a password or email, made by `createUser` with `handle` and passkey `credentialID`.
    static func passkeyUser(
        _ store: any StoreBackend, email: String? = nil, handle: String, credentialID: String
    ) async throws -> User {
        let user = User(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: nil, role: "user", tenantID: nil,
            disabledAt: nil, createdAt: Fixture.epoch)
        try await store.passkeys.createUser(
            user, userHandle: handle, passkey: Self.passkey(credentialID, userID: user.id))
        return user
    }

    @Test(
        "a challenge of each ceremony is consumed once with every field, not when unknown, used or expired",
        arguments: Backend.allCases)
    func challenges(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            let issued = [
                PasskeyChallenge(
                    hash: "r", ceremony: .registration, userID: "u-1", userHandle: "aGFuZGxl",
                    expiresAt: Fixture.at(300)
                ),
                PasskeyChallenge(
                    hash: "s", ceremony: .signup, userHandle: "bmV3", email: "ada@example.com",
                    expiresAt: Fixture.at(300.5)),
                Self.challenge("a"),
            ]
            for challenge in issued {
                #expect(try await passkeys.issueChallenge(challenge, maxPending: 10, now: Fixture.epoch))
            }
            // A registration challenge comes back naming its account: the service refuses it to another one.
            for challenge in issued {
                #expect(try await passkeys.consumeChallenge(hash: challenge.hash, now: Fixture.at(1)) == challenge)
                #expect(try await passkeys.consumeChallenge(hash: challenge.hash, now: Fixture.at(1)) == nil, "used")
            }
            #expect(try await passkeys.consumeChallenge(hash: "never", now: Fixture.at(1)) == nil)
            // Expired at its expiry; an expired challenge stays until pruned, and is never consumed.
            #expect(try await passkeys.issueChallenge(Self.challenge("e", expiresAt: 10), maxPending: 10, now: .epoch))
            #expect(try await passkeys.consumeChallenge(hash: "e", now: Fixture.at(10)) == nil)
            #expect(try await passkeys.consumeChallenge(hash: "e", now: Fixture.at(9)) != nil)
            // Hashes are compared exactly.
            #expect(try await passkeys.issueChallenge(Self.challenge("ab"), maxPending: 10, now: Fixture.epoch))
            #expect(try await passkeys.consumeChallenge(hash: "AB", now: Fixture.at(1)) == nil)
        }
    }

    @Test(
        "at the cap of unexpired challenges nothing is stored; expired ones do not count; pruning deletes only those",
        arguments: Backend.allCases)
    func challengeCapAndPrune(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            #expect(try await passkeys.issueChallenge(Self.challenge("c1", expiresAt: 10), maxPending: 2, now: .epoch))
            #expect(try await passkeys.issueChallenge(Self.challenge("c2", expiresAt: 20), maxPending: 2, now: .epoch))
            #expect(try await !passkeys.issueChallenge(Self.challenge("c3"), maxPending: 2, now: Fixture.at(1)))
            #expect(try await passkeys.consumeChallenge(hash: "c3", now: Fixture.at(1)) == nil, "not stored")
            // A second issue of a stored hash stores nothing.
            #expect(try await !passkeys.issueChallenge(Self.challenge("c2"), maxPending: 10, now: Fixture.at(1)))
            // At 10 s, c1 expired: one slot free.
            #expect(try await passkeys.issueChallenge(Self.challenge("c4"), maxPending: 2, now: Fixture.at(10)))
            #expect(try await !passkeys.issueChallenge(Self.challenge("c5"), maxPending: 2, now: Fixture.at(10)))
            #expect(try await passkeys.pruneChallenges(expiredBy: Fixture.at(10)) == 1)
            #expect(try await passkeys.pruneChallenges(expiredBy: Fixture.at(10)) == 0)
            #expect(try await passkeys.pruneChallenges(expiredBy: Fixture.at(20)) == 1)
            #expect(try await passkeys.consumeChallenge(hash: "c4", now: Fixture.at(20))?.hash == "c4")
        }
    }

    @Test(
        "an account's handle is set by the first proposal and kept; unknown accounts are not found",
        arguments: Backend.allCases)
    func userHandles(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            #expect(try await passkeys.userHandle(userID: ada.id, proposing: "h-ada") == "h-ada")
            #expect(try await passkeys.userHandle(userID: ada.id, proposing: "h-other") == "h-ada")
            await #expect(throws: StoreError.notFound) {
                try await passkeys.userHandle(userID: "nobody", proposing: "h-nobody")
            }
            // Handles are unique: another account cannot take one in use.
            await #expect(throws: StoreError.constraint(.unique)) {
                try await passkeys.userHandle(userID: bob.id, proposing: "h-ada")
            }
            #expect(try await passkeys.userHandle(userID: bob.id, proposing: "h-bob") == "h-bob")
            #expect(try await store.users.find(byID: ada.id) == ada, "the account is otherwise unchanged")
        }
    }

    @Test(
        "a passkey round-trips every field, is found with its account and handle, and is stored once per credential id",
        arguments: Backend.allCases)
    func insertAndRead(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            _ = try await passkeys.userHandle(userID: ada.id, proposing: "h-ada")
            _ = try await passkeys.userHandle(userID: bob.id, proposing: "h-bob")
            // Every field, at the extremes of its range.
            let full = Passkey(
                credentialID: "Zm9vYmFy-_", userID: ada.id, publicKey: Array(0...255).map(UInt8.init) + [0, 0],
                algorithm: -257, signCount: .max, backupEligible: false, backedUp: true, transports: [],
                aaguid: Array(1...16), name: "Ada's phone ✓", createdAt: Fixture.at(2.5), lastUsedAt: Fixture.at(3.25))
            let older = Self.passkey("b", userID: ada.id, at: 1)
            let tie = Self.passkey("a", userID: ada.id, at: 2.5)
            #expect(try await passkeys.passkey(credentialID: full.credentialID) == nil)
            for passkey in [full, older, tie] { #expect(try await passkeys.insertPasskey(passkey)) }
            #expect(
                try await passkeys.passkeys(userID: ada.id) == [older, full, tie], "oldest first, ties by id (bytes)")
            let found = try #require(try await passkeys.passkey(credentialID: full.credentialID))
            #expect(found.passkey == full && found.user == ada && found.userHandle == "h-ada")
            // Credential ids are compared exactly; taken ones are refused for any account, nothing changed.
            #expect(try await passkeys.passkey(credentialID: "ZM9VYMFY-_") == nil)
            var stolen = Self.passkey(full.credentialID, userID: bob.id)
            stolen.signCount = 0
            #expect(try await !passkeys.insertPasskey(stolen))
            #expect(try await !passkeys.insertPasskey(Self.passkey("a", userID: ada.id, at: 9)))
            #expect(try await passkeys.passkey(credentialID: full.credentialID)?.passkey == full)
            #expect(try await passkeys.passkeys(userID: bob.id).isEmpty)
            await #expect(throws: StoreError.notFound) {
                try await passkeys.insertPasskey(Self.passkey("orphan", userID: "nobody"))
            }
            #expect(try await passkeys.passkey(credentialID: "orphan") == nil)
            // Every passkey with its handle, for db copy.
            #expect(try await passkeys.insertPasskey(Self.passkey("bob-1", userID: bob.id, at: 0)))
            let all = try await passkeys.allPasskeys()
            #expect(all.map(\.passkey.credentialID) == ["bob-1", "b", full.credentialID, "a"])
            #expect(all.map(\.userHandle) == ["h-bob", "h-ada", "h-ada", "h-ada"])
        }
    }

    @Test("transports are stored comma-separated: several, one, none", arguments: Backend.allCases)
    func transports(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let ada = try await Fixture.user(store)
            _ = try await store.passkeys.userHandle(userID: ada.id, proposing: "h")
            let lists: [[String]] = [["usb", "nfc", "ble", "smart-card", "hybrid", "internal"], ["internal"], []]
            for (index, transports) in lists.enumerated() {
                var passkey = Self.passkey("t\(index)", userID: ada.id, at: Double(index))
                passkey.transports = transports
                #expect(try await store.passkeys.insertPasskey(passkey))
            }
            #expect(try await store.passkeys.passkeys(userID: ada.id).map(\.transports) == lists)
        }
    }

    @Test(
        "sign-up creates the account without a password, its handle and first passkey, or nothing at all",
        arguments: Backend.allCases)
    func createUser(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            let ada = try await Fixture.user(store)
            _ = try await passkeys.userHandle(userID: ada.id, proposing: "h-ada")
            #expect(try await passkeys.insertPasskey(Self.passkey("ada-1", userID: ada.id)))
            // A password in the given user is not stored; the passkey goes to the new user's id.
            let new = User(
                id: "u-new", email: "new@example.com", passwordHash: Fixture.hash, role: "user", tenantID: "t",
                disabledAt: nil, createdAt: Fixture.at(5))
            try await passkeys.createUser(
                new, userHandle: "h-new", passkey: Self.passkey("new-1", userID: "ignored", at: 5))
            var stored = new
            stored.passwordHash = nil
            #expect(try await store.users.find(byEmail: "new@example.com") == stored)
            let found = try #require(try await passkeys.passkey(credentialID: "new-1"))
            #expect(found.passkey == Self.passkey("new-1", userID: "u-new", at: 5))
            #expect(found.user == stored && found.userHandle == "h-new")
            #expect(try await passkeys.userHandle(userID: "u-new", proposing: "h-other") == "h-new")
            // Without an email.
            let anonymous = try await Self.passkeyUser(store, handle: "h-anon", credentialID: "anon-1")
            #expect(try await store.users.find(byID: anonymous.id) == anonymous)

            // Each failure leaves nothing behind: no user, no handle, no passkey.
            func refused(_ user: User, handle: String, credentialID: String, _ error: StoreError) async throws {
                await #expect(throws: error) {
                    try await passkeys.createUser(
                        user, userHandle: handle, passkey: Self.passkey(credentialID, userID: user.id))
                }
                if user.id != "u-new" { #expect(try await store.users.find(byID: user.id) == nil) }
                if credentialID != "ada-1" { #expect(try await passkeys.passkey(credentialID: credentialID) == nil) }
            }
            func user(_ id: String, email: String?) -> User {
                User(
                    id: id, email: email, passwordHash: nil, role: "user", tenantID: nil, disabledAt: nil,
                    createdAt: Fixture.at(6))
            }
            try await refused(user("u-x1", email: "ada@example.com"), handle: "h-x1", credentialID: "x1", .emailTaken)
            try await refused(
                user("u-x2", email: "x2@example.com"), handle: "h-x2", credentialID: "ada-1", .constraint(.primaryKey))
            try await refused(
                user("u-x3", email: "x3@example.com"), handle: "h-ada", credentialID: "x3", .constraint(.unique))
            try await refused(
                user("u-new", email: "x4@example.com"), handle: "h-x4", credentialID: "x4", .constraint(.primaryKey))
            // The refused handles and emails are free: nothing of the failed attempts stayed.
            try await passkeys.createUser(
                user("u-x1", email: "x1@example.com"), userHandle: "h-x1", passkey: Self.passkey("x1", userID: "u-x1"))
            #expect(try await passkeys.passkey(credentialID: "x1")?.userHandle == "h-x1")
            #expect(try await passkeys.passkey(credentialID: "ada-1")?.user == ada)
            #expect(try await store.users.list().count == 4)
        }
    }

    @Test(
        "the counter rule: a greater counter, or both zero, is recorded with the backup state and time; else nothing",
        arguments: Backend.allCases)
    func counterRule(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            _ = try await Self.passkeyUser(store, handle: "h", credentialID: "k")
            func record(_ count: UInt32, backedUp: Bool = true, at seconds: Double) async throws -> Bool {
                try await passkeys.recordAssertion(
                    credentialID: "k", signCount: count, backedUp: backedUp, now: Fixture.at(seconds))
            }
            func state() async throws -> (UInt32, Bool, Date?) {
                let passkey = try #require(try await passkeys.passkey(credentialID: "k")?.passkey)
                return (passkey.signCount, passkey.backedUp, passkey.lastUsedAt)
            }
            // Both zero (an authenticator without a counter, as synced passkeys are): accepted, every time.
            #expect(try await record(0, at: 10))
            #expect(try await state() == (0, true, Optional(Fixture.at(10))))
            #expect(try await record(0, backedUp: false, at: 11))
            #expect(try await state() == (0, false, Optional(Fixture.at(11))))
            // From zero up; then equal, lower and zero again are regressions: refused, nothing changed.
            #expect(try await record(5, at: 12))
            for regression: UInt32 in [5, 4, 0] { #expect(try await !record(regression, backedUp: false, at: 13)) }
            #expect(try await state() == (5, true, Optional(Fixture.at(12))))
            #expect(try await record(6, backedUp: false, at: 14))
            #expect(try await state() == (6, false, Optional(Fixture.at(14))))
            #expect(try await record(.max, at: 15))
            #expect(try await !record(.max, at: 16))
            #expect(try await state() == (.max, true, Optional(Fixture.at(15))))
            #expect(try await !passkeys.recordAssertion(credentialID: "K", signCount: 1, backedUp: true, now: .epoch))
        }
    }

    @Test("a passkey is renamed only by its account", arguments: Backend.allCases)
    func rename(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            let ada = try await Self.passkeyUser(store, handle: "h-ada", credentialID: "ada-1")
            let bob = try await Self.passkeyUser(store, handle: "h-bob", credentialID: "bob-1")
            var renamed = Self.passkey("ada-1", userID: ada.id)
            renamed.name = "Work laptop"
            #expect(
                try await passkeys.renamePasskey(credentialID: "ada-1", userID: ada.id, name: "Work laptop") == renamed)
            #expect(try await passkeys.renamePasskey(credentialID: "ada-1", userID: bob.id, name: "Mine") == nil)
            #expect(try await passkeys.renamePasskey(credentialID: "nope", userID: ada.id, name: "Mine") == nil)
            #expect(try await passkeys.passkeys(userID: ada.id) == [renamed])
            #expect(try await passkeys.passkeys(userID: bob.id) == [Self.passkey("bob-1", userID: bob.id)])
        }
    }

    @Test(
        "a passkey is deleted only by its account, and only while the account keeps another way in",
        arguments: Backend.allCases)
    func delete(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            // No password, identity, other passkey or email: the last way in, also with email sign-in on.
            let bare = try await Self.passkeyUser(store, handle: "h-bare", credentialID: "bare")
            for emailSignIn in [false, true] {
                #expect(
                    try await passkeys.deletePasskey(credentialID: "bare", userID: bare.id, emailSignIn: emailSignIn)
                        == .lastSignInMethod)
            }
            // Another account's or an unknown passkey: not found, nothing changed.
            let other = try await Self.passkeyUser(store, handle: "h-other", credentialID: "other")
            #expect(
                try await passkeys.deletePasskey(credentialID: "bare", userID: other.id, emailSignIn: true) == .notFound
            )
            #expect(
                try await passkeys.deletePasskey(credentialID: "none", userID: bare.id, emailSignIn: true) == .notFound)
            #expect(try await passkeys.passkeys(userID: bare.id).count == 1)

            // With an email: a way in only when email-code sign-in is on.
            let mailed = try await Self.passkeyUser(
                store, email: "mail@example.com", handle: "h-mail", credentialID: "mail")
            #expect(
                try await passkeys.deletePasskey(credentialID: "mail", userID: mailed.id, emailSignIn: false)
                    == .lastSignInMethod)
            #expect(
                try await passkeys.deletePasskey(credentialID: "mail", userID: mailed.id, emailSignIn: true) == .deleted
            )
            #expect(try await passkeys.passkeys(userID: mailed.id).isEmpty)

            // A password.
            let ada = try await Fixture.user(store)
            _ = try await passkeys.userHandle(userID: ada.id, proposing: "h-ada")
            #expect(try await passkeys.insertPasskey(Self.passkey("ada-1", userID: ada.id)))
            #expect(
                try await passkeys.deletePasskey(credentialID: "ada-1", userID: ada.id, emailSignIn: false) == .deleted)

            // A linked identity.
            let linked = try await Self.passkeyUser(store, handle: "h-linked", credentialID: "linked")
            try await store.identities.link(
                provider: "apple", subject: "sub", userID: linked.id, email: nil, now: Fixture.epoch)
            #expect(
                try await passkeys.deletePasskey(credentialID: "linked", userID: linked.id, emailSignIn: false)
                    == .deleted)

            // Another passkey: the first goes, the second is then the last.
            let two = try await Self.passkeyUser(store, handle: "h-two", credentialID: "two-1")
            #expect(try await passkeys.insertPasskey(Self.passkey("two-2", userID: two.id, at: 2)))
            #expect(
                try await passkeys.deletePasskey(credentialID: "two-1", userID: two.id, emailSignIn: false) == .deleted)
            #expect(
                try await passkeys.deletePasskey(credentialID: "two-2", userID: two.id, emailSignIn: false)
                    == .lastSignInMethod)
            #expect(try await passkeys.passkeys(userID: two.id).map(\.credentialID) == ["two-2"])
            #expect(try await passkeys.passkey(credentialID: "two-1") == nil)
        }
    }

    @Test(
        "deleting an account deletes its passkeys (by cascade), freeing their credential ids and its handle",
        arguments: Backend.allCases)
    func accountDeletionCascades(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let passkeys = store.passkeys
            let ada = try await Self.passkeyUser(store, email: "ada@example.com", handle: "h-ada", credentialID: "a1")
            #expect(try await passkeys.insertPasskey(Self.passkey("a2", userID: ada.id, at: 2)))
            let bob = try await Self.passkeyUser(store, handle: "h-bob", credentialID: "b1")
            let carol = try await Self.passkeyUser(store, handle: "h-carol", credentialID: "c1")
            try await store.users.deleteUser(userID: ada.id, method: .selfService, now: Fixture.at(10))
            #expect(try await passkeys.passkeys(userID: ada.id).isEmpty)
            #expect(try await passkeys.passkey(credentialID: "a1") == nil)
            #expect(try await !passkeys.recordAssertion(credentialID: "a2", signCount: 1, backedUp: true, now: .epoch))
            // A row deleted by hand (an operator's SQL shell) cascades too.
            try await Fixture.deleteUser(carol.id, from: store)
            #expect(try await passkeys.allPasskeys().map(\.passkey.credentialID) == ["b1"])
            // The credential id and the handle can be registered again.
            let again = try await Self.passkeyUser(store, handle: "h-ada", credentialID: "a1")
            #expect(try await passkeys.passkey(credentialID: "a1")?.user.id == again.id)
            #expect(try await passkeys.passkey(credentialID: "b1")?.user.id == bob.id)
        }
    }
}

extension Date {
    /// `Fixture.epoch`, short for the contract suites.
    fileprivate static var epoch: Date { Fixture.epoch }
}
