// TEMPORARY (issue 34 contracts): a default so that main builds until the store helper implements
// `IntegrityStoring` on both backends. The store branch deletes this file.
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension StoreBackend {
    /// Not implemented yet: every call throws `.misuse`.
    public var integrity: any IntegrityStoring { PendingIntegrityStore() }
}

/// Throws `.misuse` for every call (issue 34 contracts).
public struct PendingIntegrityStore: IntegrityStoring {
    public init() {}
    public func issueChallenge(hash: String, expiresAt: Date, maxPending: Int, now: Date) async throws(StoreError)
        -> Bool
    { throw .misuse("not implemented yet") }
    public func consumeChallenge(hash: String, now: Date) async throws(StoreError) -> Bool {
        throw .misuse("not implemented yet")
    }
    public func pruneChallenges(expiredBy now: Date) async throws(StoreError) -> Int {
        throw .misuse("not implemented yet")
    }
    public func insertAttestedKey(_ key: AttestedKey) async throws(StoreError) -> Bool {
        throw .misuse("not implemented yet")
    }
    public func attestedKey(id: String) async throws(StoreError) -> AttestedKey? {
        throw .misuse("not implemented yet")
    }
    public func advanceCounter(keyID: String, to counter: UInt32, now: Date) async throws(StoreError) -> Bool {
        throw .misuse("not implemented yet")
    }
    public func deleteAttestedKey(id: String) async throws(StoreError) -> Bool {
        throw .misuse("not implemented yet")
    }
}
