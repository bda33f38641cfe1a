/// Answer of `DELETE /auth/account` and `POST /auth/account/deletion/confirm`: `{"deleted": true}`.
public struct AccountDeletedResponse: Codable, Sendable, Equatable {
    /// Always true: the account, its identities, customer ids and sessions are gone.
    public var deleted: Bool

    /// Creates the answer.
    public init(deleted: Bool = true) {
        self.deleted = deleted
    }
}
