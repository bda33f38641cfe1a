public import Store

// The tenant an operator assigns (`tokenvend users set-tenant`); registration never sets one.
extension UserStore {
    /// Sets or clears (`nil`) the tenant of the user `userID`.
    /// - Throws: `.notFound` for an unknown id, `.unavailable` on a full or read-only disk.
    public func setTenant(userID: String, tenantID: String?) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.setTenant(userID: userID, tenantID: tenantID, connection)
        }
    }

    static func setTenant(userID: String, tenantID: String?, _ connection: Connection) throws(StoreError) {
        let changed = try connection.execute(
            "UPDATE users SET tenant_id = ? WHERE id = ?", [SQLValue(tenantID), .text(userID)])
        guard changed == 1 else { throw .notFound }
    }
}
