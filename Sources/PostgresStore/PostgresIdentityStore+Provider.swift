internal import Cryptography
public import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// What the provider keeps about an identity (issue 33), as `IdentityStore` does it on SQLite: Sign in with Apple's
// sealed refresh token (`BYTEA`, sent and read as hex) and whether Apple's email relay forwards. Neither changes a
// session's status, so the status caches stay.
extension PostgresIdentityStore {
    @discardableResult
    public func setSealedRefreshToken(
        provider: String, subject: String, userID: String, sealed: [UInt8]
    ) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "identities.setRefreshToken",
                // The user's key lock: a deletion running meanwhile (which locks the user row first) either
                // waits for this token and revokes it, or has deleted the identity before this finds it.
                """
                WITH u AS (SELECT id FROM users WHERE id = $3 FOR KEY SHARE)
                UPDATE identities SET refresh_token = decode($4, 'hex')
                FROM u WHERE provider = $1 AND subject = $2 AND user_id = u.id
                """, [provider, subject, userID, Hex.encode(sealed)])
        ])
        return rows[0].affected == 1
    }

    @discardableResult
    public func setEmailForwarding(
        provider: String, subject: String, forwards: Bool
    ) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "identities.setForwarding",
                "UPDATE identities SET email_forwarding = $3::boolean WHERE provider = $1 AND subject = $2",
                [provider, subject, forwards ? "true" : "false"])
        ])
        return rows[0].affected == 1
    }

    /// An identity from a row of `readColumns`.
    static func identity(_ row: PostgresRow) throws(StoreError) -> Identity {
        var sealed: [UInt8]?
        if let hex = try row.optionalString(5) {
            guard let bytes = Hex.decode(hex) else { throw .misuse("identities.refresh_token read back not as hex") }
            sealed = bytes
        }
        return Identity(
            provider: try row.string(0), subject: try row.string(1), userID: try row.string(2),
            email: try row.optionalString(3), createdAt: Date(storeMilliseconds: try row.int64(4)),
            sealedRefreshToken: sealed, emailForwarding: try row.optionalString(6).map { $0 == "t" })
    }
}
