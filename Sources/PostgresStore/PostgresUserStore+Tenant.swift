public import Store

// The tenant an operator assigns (`tokenvend users set-tenant`), as `UserStore.setTenant` does it on SQLite.
// No change notification: the tenant is not part of a session's kept status (it travels in the access token).
extension PostgresUserStore {
    public func setTenant(userID: String, tenantID: String?) async throws(StoreError) {
        let rows = try await context.write([
            PostgresStatement(
                "users.setTenant", "UPDATE users SET tenant_id = $2 WHERE id = $1", [userID, tenantID])
        ])
        guard rows[0].affected == 1 else { throw .notFound }
    }
}
