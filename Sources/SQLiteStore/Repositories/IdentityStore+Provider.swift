public import Store

// What the provider keeps about an identity (issue 33): Sign in with Apple's sealed refresh token, revoked when the
// account is deleted, and whether Apple's email relay forwards. Neither changes a session's status.
extension IdentityStore {
    @discardableResult
    public func setSealedRefreshToken(
        provider: String, subject: String, userID: String, sealed: [UInt8]
    ) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) -> Bool in
            try connection.execute(
                "UPDATE identities SET refresh_token = ? WHERE provider = ? AND subject = ? AND user_id = ?",
                [.blob(sealed), .text(provider), .text(subject), .text(userID)]) == 1
        }
    }

    @discardableResult
    public func setEmailForwarding(
        provider: String, subject: String, forwards: Bool
    ) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) -> Bool in
            try connection.execute(
                "UPDATE identities SET email_forwarding = ? WHERE provider = ? AND subject = ?",
                [.integer(forwards ? 1 : 0), .text(provider), .text(subject)]) == 1
        }
    }
}
