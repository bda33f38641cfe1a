public import Foundation
public import TokenClientCore

/// An ``AppAttestService`` for Linux tests: keys `key-1`, `key-2`…; an attestation is `attest|<keyId>|<hash hex>`
/// and an assertion `assert|<keyId>|<hash hex>` (as UTF-8), which ``FakeIntegrityServer`` checks.
public final class FakeAppAttestService: AppAttestService {
    public struct State: Sendable {
        public var isSupported = true
        public var generated = 0
        /// Keys the device lost: `generateAssertion` throws ``AppAttestServiceError/invalidKey``.
        public var lostKeys: Set<String> = []
        /// Every call, as `generate`, `attest <keyId>`, `assert <keyId>`.
        public var calls: [String] = []
    }

    package let state = Locked(State())

    public init() {}

    /// Changes the fake's knobs.
    public func configure(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Every call so far.
    public var calls: [String] { state.withLock { $0.calls } }

    public var isSupported: Bool { state.withLock { $0.isSupported } }

    public func generateKey() async throws -> String {
        state.withLock { state in
            state.generated += 1
            state.calls.append("generate")
            return "key-\(state.generated)"
        }
    }

    public func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        state.withLock { $0.calls.append("attest \(keyID)") }
        return Array("attest|\(keyID)|\(Self.hex(clientDataHash))".utf8)
    }

    public func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        try state.withLock { state in
            state.calls.append("assert \(keyID)")
            if state.lostKeys.contains(keyID) { throw AppAttestServiceError.invalidKey }
        }
        return Array("assert|\(keyID)|\(Self.hex(clientDataHash))".utf8)
    }

    /// Lowercase hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }
}
