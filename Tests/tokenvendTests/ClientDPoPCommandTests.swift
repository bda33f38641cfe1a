import ArgumentParser
import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@testable import tokenvend

/// `tokenvend login` binds the session to a DPoP key kept in the session file; the other commands sign with it.
@Suite("Command-line client: DPoP-bound sessions")
struct ClientDPoPCommandTests {
    @Test("login binds: the key is in the 0600 session file; token, account delete and logout sign proofs with it")
    func boundSession() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        harness.server.configure { $0.dpop.binds = true }
        #expect(try await harness.login() == 0)
        let material = try #require(try harness.store.loadKey())
        #expect(material.kind == "p256")
        let keyX = try DPoPKeyKind.softwareP256.restore(material).publicJWK.x
        #expect(try harness.store.load()?.tokenType == "DPoP")
        #expect(try harness.folder.mode(of: harness.sessionFile) == 0o600)
        #expect(try await harness.moss() == 0)
        #expect(try await harness.stream(["--customer-id", "registered=\(FakeAuthServer.email)"]) == 0)
        #expect(try await harness.logout() == 0)
        for path in ["/auth/login", "/moss-token", "/stream-token", "/auth/logout"] {
            let proofs = harness.server.proofs(path)
            #expect(proofs.count == 1 && proofs.allSatisfy { $0.keyX == keyX }, "\(path)")
        }
        #expect(harness.server.requests.filter { $0.path == "/moss-token" }.map(\.authorization) == ["DPoP access-1"])
        #expect(!FileManager.default.fileExists(atPath: harness.sessionFile.path))
        harness.expectNoSecretsPrinted()
    }

    @Test("account delete of a bound session is signed with the session's key")
    func accountDelete() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        harness.server.configure { $0.dpop.binds = true }
        #expect(try await harness.login() == 0)
        let keyX = try DPoPKeyKind.softwareP256.restore(try #require(try harness.store.loadKey())).publicJWK.x
        let status = try await AccountDeleteCommandTests.delete(
            harness, ["--yes", "--password-stdin"], stdin: FakeAuthServer.password + "\n")
        #expect(status == 0)
        #expect(harness.server.requests.last?.authorization == "DPoP access-1")
        #expect(harness.server.proofs("/auth/account").map(\.keyX) == [keyX])
    }

    @Test("login --no-dpop keeps no key and sends no proofs: plain bearer tokens")
    func noDPoP() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        harness.server.configure { $0.dpop.binds = true }
        try FileManager.default.createDirectory(
            at: harness.sessionFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try harness.store.saveKey(DPoPKeyMaterial(kind: "p256", data: Data([4])))  // an earlier session's key
        let command = try LoginCommand.parse(
            harness.common + ["--email", FakeAuthServer.email, "--password-stdin", "--no-dpop"])
        let context = harness.context(stdin: FakeAuthServer.password + "\n")
        #expect(await exitStatus { try await command.run(in: context) } == 0)
        #expect(try harness.store.loadKey() == nil)
        #expect(try harness.store.load()?.tokenType == "Bearer")
        #expect(try await harness.moss() == 0)
        #expect(harness.server.proofs.isEmpty)
        #expect(harness.server.requests.last?.authorization == "Bearer access-1")
    }

    @Test("a refused login leaves no key behind")
    func refusedLogin() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login(password: "wrong password") == 1)
        #expect(!FileManager.default.fileExists(atPath: harness.sessionFile.path))
    }
}
