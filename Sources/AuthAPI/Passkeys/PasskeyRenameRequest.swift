/// Body of `PATCH /auth/passkeys/{id}`: `{"name"}` (1–64 characters after trimming).
public struct PasskeyRenameRequest: Codable, Sendable, Equatable {
    /// The new name.
    public var name: String

    /// Creates the body.
    public init(name: String) { self.name = name }
}
