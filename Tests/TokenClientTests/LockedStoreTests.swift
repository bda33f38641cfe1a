import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A store that cannot be read (the Keychain before the first unlock) is not "signed out", and a save that fails
/// is retried.
@Suite("Locked store", .timeLimit(.minutes(1)))
struct LockedStoreTests {
    static let stored = StoredTokens(
        accessToken: "access-0", refreshToken: "refresh-0",
        accessTokenExpiresAt: TestClock().now.addingTimeInterval(900), user: FakeAuthServer.user)

    /// A fixture on a locked store holding a live pair `access-0` / `refresh-0`.
    static func lockedFixture(holding tokens: StoredTokens? = stored, retry: TimeInterval) -> (
        SessionFixture, LockableTokenStore
    ) {
        let store = LockableTokenStore(tokens, isLocked: true)
        let fixture = SessionFixture(store: store, lockedRetryInterval: retry)
        fixture.server.configure { state in
            state.validAccess = ["access-0"]
            state.liveRefresh = "refresh-0"
            state.liveAccess = "access-0"
        }
        return (fixture, store)
    }

    @Test("locked at start: state and event locked, every call throws storageLocked, nothing sent or cleared")
    func lockedAtStart() async throws {
        let (fixture, store) = Self.lockedFixture(retry: 60)
        let session = fixture.session
        #expect(await session.state == .locked)
        #expect(session.snapshot.state == .locked)
        let events = Recorder(await session.events())
        #expect(await events.wait { !$0.isEmpty } == [.locked])

        await #expect(throws: TokenClientError.storageLocked) { try await session.me() }
        await #expect(throws: TokenClientError.storageLocked) { try await session.accessToken() }
        await #expect(throws: TokenClientError.storageLocked) {
            try await session.authorize(try SessionFixture.request("auth/me"))
        }
        #expect(fixture.server.requests.isEmpty)
        #expect(store.current.clears == 0)
        #expect(store.tokens == Self.stored)
        #expect(await session.state == .locked)
    }

    @Test("after unlock the session recovers by itself: signedIn(user), never signedOut, store never cleared")
    func recoversByItself() async throws {
        let (fixture, store) = Self.lockedFixture(retry: 0.05)
        let session = fixture.session
        let events = Recorder(await session.events())
        let states = Recorder(await session.stateUpdates())
        try await Task.sleep(for: .milliseconds(120))
        #expect(await session.state == .locked)
        store.configure { $0.isLocked = false }

        let seen = await events.wait { $0.contains(.signedIn(FakeAuthServer.user)) }
        #expect(seen.contains(.signedIn(FakeAuthServer.user)))
        #expect(!seen.contains { $0.isSignOut })
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(!(await states.settled()).contains(.signedOut))
        #expect(session.snapshot.accessToken == "access-0")
        #expect(try await session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-0"])
        #expect(store.current.clears == 0)
    }

    @Test("after unlock reload() recovers at once")
    func reloadRecovers() async throws {
        let (fixture, store) = Self.lockedFixture(retry: 60)
        let session = fixture.session
        let events = Recorder(await session.events())
        store.configure { $0.isLocked = false }
        await session.reload()

        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(session.snapshot.state == .signedIn(FakeAuthServer.user))
        #expect(try await session.me().sub == FakeAuthServer.user.id)
        let seen = await events.settled()
        #expect(seen.contains(.signedIn(FakeAuthServer.user)))
        #expect(!seen.contains { $0.isSignOut })
        #expect(store.current.clears == 0)
    }

    @Test("a locked store that turns out empty gives the signedOut state without a signedOut event")
    func emptyAfterUnlock() async throws {
        let (fixture, store) = Self.lockedFixture(holding: nil, retry: 60)
        let session = fixture.session
        let events = Recorder(await session.events())
        store.configure { $0.isLocked = false }
        await session.reload()

        #expect(await session.state == .signedOut)
        #expect(!(await events.settled()).contains { $0.isSignOut })
        await #expect(throws: TokenClientError.signedOut) { try await session.me() }
    }

    @Test("a store that locks later makes reload() give locked, not signed out; unlocking restores the same pair")
    func lockedByReload() async throws {
        let store = LockableTokenStore()
        let fixture = SessionFixture(store: store, lockedRetryInterval: 60)
        let session = fixture.session
        try await fixture.signIn()
        let events = Recorder(await session.events())
        store.configure { $0.isLocked = true }
        await session.reload()

        #expect(await session.state == .locked)
        await #expect(throws: TokenClientError.storageLocked) { try await session.me() }
        store.configure { $0.isLocked = false }
        await session.reload()
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(try await session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-1"])
        let seen = await events.settled()
        #expect(seen.contains(.locked))
        #expect(!seen.contains { $0.isSignOut })
        #expect(store.current.clears == 0)
    }

    @Test(
        "a save that fails after a rotation announces saveFailed, keeps the pair in memory, writes it on the next call")
    func failedSaveRetriedOnNextCall() async throws {
        let store = LockableTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        store.configure { $0.failsSaves = true }
        fixture.clock.advance(by: 901)

        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.session.snapshot.accessToken == "access-2")
        #expect(store.tokens?.refreshToken == "refresh-1")
        let seen = await events.wait { $0.contains { if case .saveFailed = $0 { true } else { false } } }
        #expect(seen.contains(.saveFailed(.storage("the test store refuses writes"))))
        #expect(await fixture.session.state.isSignedIn)

        store.configure { $0.failsSaves = false }
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(store.tokens?.refreshToken == "refresh-2")
        #expect(store.tokens?.accessToken == "access-2")
        #expect(fixture.server.count("/auth/refresh") == 1)
    }

    @Test("a save that failed is written by reload() once the store works again")
    func failedSaveRetriedByReload() async throws {
        let store = LockableTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        store.configure { $0.failsSaves = true }
        try await fixture.session.refresh()
        #expect(store.tokens?.refreshToken == "refresh-1")

        store.configure { $0.failsSaves = false }
        await fixture.session.reload()
        #expect(store.tokens?.refreshToken == "refresh-2")
        #expect(fixture.session.snapshot.accessToken == "access-2")
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-2"])
    }
}
