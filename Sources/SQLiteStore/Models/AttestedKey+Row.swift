import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `AttestedKey`; the PostgreSQL backend reads its own rows.
extension AttestedKey {
    /// The columns `init(row:)` reads and `bindings` writes, in order.
    static let columns = "key_id, public_key, counter, app_id, environment, created_at, last_asserted_at"

    init(row: Row) throws(StoreError) {
        guard case .blob(let publicKey) = try row.value(1) else {
            throw .misuse("app_attest_keys.public_key is not a blob")
        }
        guard let counter = UInt32(exactly: try row.int64(2)) else {
            throw .misuse("app_attest_keys.counter out of range")
        }
        guard let environment = AttestationEnvironment(rawValue: try row.string(4)) else {
            throw .misuse("app_attest_keys.environment unknown")
        }
        self.init(
            keyID: try row.string(0), publicKey: publicKey, counter: counter, appID: try row.string(3),
            environment: environment, createdAt: Date(storeMilliseconds: try row.int64(5)),
            lastAssertedAt: try row.optionalInt64(6).map(Date.init(storeMilliseconds:)))
    }

    /// The values of `columns`, in order.
    var bindings: [SQLValue] {
        [
            .text(keyID), .blob(publicKey), .integer(Int64(counter)), .text(appID), .text(environment.rawValue),
            .integer(createdAt.storeMilliseconds), SQLValue(lastAssertedAt?.storeMilliseconds),
        ]
    }
}
