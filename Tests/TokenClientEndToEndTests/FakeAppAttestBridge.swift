import AppIntegrityTesting
import Foundation
import TokenClient
import TokenClientCore
import TokenClientTesting

/// `DCAppAttestService` played by ``FakeAppAttest`` (scripts/fake_app_attest.py): real attestation objects under a
/// throw-away root, and assertions with a counter that goes up by one per assertion of a key.
final class FakeAppAttestBridge: AppAttestService {
    let fake: FakeAppAttest
    let appID: String
    /// Handle and last counter by key id.
    private let keys = Locked<[String: (handle: String, counter: UInt32)]>([:])

    init(fake: FakeAppAttest, appID: String) {
        self.fake = fake
        self.appID = appID
    }

    var isSupported: Bool { true }

    func generateKey() async throws -> String {
        let (keyID, handle) = try await fake.newKey()
        keys.withLock { $0[keyID] = (handle, 0) }
        return keyID
    }

    func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        guard let handle = keys.withLock({ $0[keyID]?.handle }) else { throw AppAttestServiceError.invalidKey }
        let answer = try await fake.attest(appID: appID, clientDataHash: clientDataHash, handle: handle)
        return try Self.bytes(answer.attestation)
    }

    func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        guard
            let (handle, counter) = keys.withLock({ keys -> (String, UInt32)? in
                guard let key = keys[keyID] else { return nil }
                keys[keyID] = (key.handle, key.counter + 1)
                return (key.handle, key.counter + 1)
            })
        else { throw AppAttestServiceError.invalidKey }
        return try Self.bytes(
            try await fake.assert(handle: handle, appID: appID, clientDataHash: clientDataHash, counter: counter))
    }

    private static func bytes(_ base64: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: base64) else { throw TokenClientError.invalidResponse }
        return [UInt8](data)
    }
}
