#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a ``DPoPKeyStore`` keeps of a ``DPoPKey``: the name of its ``DPoPKeyKind`` and its bytes.
///
/// The bytes are the private key for software keys (P-256: the X9.63 `04 ‖ x ‖ y ‖ d`, 97 bytes; Ed25519: the
/// 32-byte seed) and CryptoKit's `dataRepresentation` for a Secure Enclave key (an encrypted blob that only this
/// device's Secure Enclave can use). Printing shows `<redacted>` in place of the bytes.
public struct DPoPKeyMaterial: Sendable, Hashable, Codable {
    /// The ``DPoPKeyKind/name`` that restores it.
    public var kind: String
    /// The key's bytes.
    public var data: Data

    /// Creates material from a kind name and bytes.
    public init(kind: String, data: Data) {
        self.kind = kind
        self.data = data
    }
}

extension DPoPKeyMaterial: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { Redacted.describe("DPoPKeyMaterial", shownFields) }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> { ["kind": kind, "data": Redacted()] }
}
