import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// ``AppAttestIntegrityProvider`` through a session: attest once, then assert; a new key when the old one is refused.
@Suite("App Attest provider", .timeLimit(.minutes(1)))
struct AppAttestProviderTests {
    /// SHA-256 of the UTF-8 bytes of `challenge-1` and `challenge-2` (computed with `sha256sum`).
    static let firstHash = "023212d1fd4f0a3ad03c45c52a40871f468abc416ec181f6eebfc3226cc4753c"
    static let secondHash = "b16b36bff6d0baefb5cda5f800d778c852cb838fcdca8c35f2bc9214172ae3d1"

    @Test("the first request attests a new key with SHA-256 of the challenge; the renewal asserts with that key")
    func attestOnceThenAssert() async throws {
        let fixture = IntegrityFixture()
        try await fixture.signIn()
        #expect(fixture.service.calls == ["generate", "attest key-1"])
        #expect(fixture.keyStore.load() == "key-1")
        #expect(fixture.exchanges == ["challenge", "apple/attest"])
        #expect(fixture.server.snapshot.clientDataHashes["challenge-1"] == Self.firstHash)
        #expect(fixture.server.integrityValues("/auth/login") == ["integrity-1"])

        fixture.clock.advance(by: 3600 - 60)
        _ = try await fixture.session.me()
        #expect(fixture.service.calls == ["generate", "attest key-1", "assert key-1"])
        #expect(fixture.exchanges == ["challenge", "apple/attest", "challenge", "apple/assert"])
        #expect(fixture.server.snapshot.clientDataHashes["challenge-2"] == Self.secondHash)
        #expect(fixture.server.integrityValues("/auth/me") == ["integrity-2"])
        #expect(fixture.server.snapshot.attestedKeys == ["key-1": 1])
    }

    @Test("a stored key is asserted at once, without a new attestation")
    func storedKeyAsserts() async throws {
        let fixture = IntegrityFixture(storedKey: "key-7")
        fixture.server.configure { $0.attestedKeys = ["key-7": 3] }
        try await fixture.signIn()
        #expect(fixture.service.calls == ["assert key-7"])
        #expect(fixture.server.snapshot.attestedKeys == ["key-7": 4])
    }

    @Test("an assertion the server refuses forgets the key, and a new key is attested once")
    func refusedAssertionReattests() async throws {
        let fixture = IntegrityFixture(storedKey: "key-9")
        try await fixture.signIn()
        #expect(fixture.service.calls == ["assert key-9", "generate", "attest key-1"])
        #expect(fixture.exchanges == ["challenge", "apple/assert", "challenge", "apple/attest"])
        #expect(fixture.keyStore.load() == "key-1")
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)

        // The server forgets the key (a reset store): the next renewal attests key-2 and keeps it.
        fixture.server.forgetKeys()
        fixture.clock.advance(by: 3600)
        _ = try await fixture.session.me()
        #expect(fixture.service.calls.suffix(3) == ["assert key-1", "generate", "attest key-2"])
        #expect(fixture.keyStore.load() == "key-2")
    }

    @Test("a key the device lost (invalidKey) is replaced without asking the server to assert")
    func lostKeyReattests() async throws {
        let fixture = IntegrityFixture(storedKey: "key-5")
        fixture.service.configure { $0.lostKeys = ["key-5"] }
        try await fixture.signIn()
        #expect(fixture.service.calls == ["assert key-5", "generate", "attest key-1"])
        #expect(!fixture.exchanges.contains("apple/assert"))
        #expect(fixture.keyStore.load() == "key-1")
    }

    @Test("a device without App Attest fails with .unsupported and sends nothing to the server")
    func unsupportedDevice() async throws {
        let fixture = IntegrityFixture()
        fixture.service.configure { $0.isSupported = false }
        await #expect(throws: TokenClientError.integrity(.unsupported)) { try await fixture.signIn() }
        #expect(fixture.server.snapshot.requests.isEmpty)
        #expect(await fixture.session.state == .signedOut)
    }

    @Test("a challenge endpoint that is not configured (404) fails with .unavailable and keeps no key")
    func challengeUnavailable() async throws {
        let fixture = IntegrityFixture()
        fixture.server.configure { $0.challengeStatus = 404 }
        let error = await #expect(throws: TokenClientError.self) { try await fixture.signIn() }
        guard case .integrity(.unavailable(let status, let body)) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(status == 404)
        #expect(body?.error == .unavailable)
        #expect(fixture.keyStore.load() == nil)
        #expect(fixture.auth.count("/auth/login") == 0)
    }

    @Test("the Keychain key store saves, reads and clears the key id, and reports a locked Keychain")
    func keychainKeyStore() throws {
        let keychain = FakeKeychain()
        let store = KeychainAppAttestKeyStore(backend: keychain)
        #expect(try store.load() == nil)
        try store.save("a2V5LWlk")
        #expect(try store.load() == "a2V5LWlk")
        #expect(keychain.accessibility(of: store.item) == .afterFirstUnlockThisDeviceOnly)
        try store.save("b3RoZXI=")
        #expect(try store.load() == "b3RoZXI=")
        keychain.lock()
        #expect(throws: TokenClientError.storageLocked) { try store.load() }
        keychain.unlock()
        try store.clear()
        try store.clear()
        #expect(try store.load() == nil)
    }
}
