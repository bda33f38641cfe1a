import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `Passkey` and `PasskeyChallenge`; the PostgreSQL backend reads its own rows.
extension Passkey {
    /// The columns `init(row:)` reads and `bindings` writes, in order.
    static let columns = """
        credential_id, user_id, public_key, algorithm, sign_count, backup_eligible, backed_up, transports, aaguid, \
        name, created_at, last_used_at
        """

    /// How many columns `init(row:)` reads (a query may select more after them).
    static let columnCount = 12

    init(row: Row) throws(StoreError) {
        guard case .blob(let publicKey) = try row.value(2), case .blob(let aaguid) = try row.value(8) else {
            throw .misuse("passkeys.public_key or aaguid is not a blob")
        }
        guard let signCount = UInt32(exactly: try row.int64(4)), let algorithm = Int(exactly: try row.int64(3)) else {
            throw .misuse("passkeys.sign_count or algorithm out of range")
        }
        self.init(
            credentialID: try row.string(0), userID: try row.string(1), publicKey: publicKey, algorithm: algorithm,
            signCount: signCount, backupEligible: try row.int64(5) != 0, backedUp: try row.int64(6) != 0,
            transports: Self.transports(stored: try row.string(7)), aaguid: aaguid, name: try row.string(9),
            createdAt: Date(storeMilliseconds: try row.int64(10)),
            lastUsedAt: try row.optionalInt64(11).map(Date.init(storeMilliseconds:)))
    }

    /// The values of `columns`, in order.
    var bindings: [SQLValue] {
        [
            .text(credentialID), .text(userID), .blob(publicKey), .integer(Int64(algorithm)),
            .integer(Int64(signCount)), .integer(backupEligible ? 1 : 0), .integer(backedUp ? 1 : 0),
            .text(storedTransports), .blob(aaguid), .text(name), .integer(createdAt.storeMilliseconds),
            SQLValue(lastUsedAt?.storeMilliseconds),
        ]
    }
}

extension PasskeyChallenge {
    /// The columns `init(row:)` reads, in order.
    static let columns = "hash, ceremony, user_id, user_handle, email, expires_at"

    init(row: Row) throws(StoreError) {
        guard let ceremony = Ceremony(rawValue: try row.string(1)) else {
            throw .misuse("passkey_challenges.ceremony unknown")
        }
        self.init(
            hash: try row.string(0), ceremony: ceremony, userID: try row.optionalString(2),
            userHandle: try row.optionalString(3), email: try row.optionalString(4),
            expiresAt: Date(storeMilliseconds: try row.int64(5)))
    }

    /// The values of `columns`, in order.
    var bindings: [SQLValue] {
        [
            .text(hash), .text(ceremony.rawValue), SQLValue(userID), SQLValue(userHandle), SQLValue(email),
            .integer(expiresAt.storeMilliseconds),
        ]
    }
}
