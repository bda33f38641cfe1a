/// The kinds of outbox rows (`OutboxMessage.kind`) that are not email messages: the outbox is the one durable
/// queue of outbound work (schema 9 renamed `email_outbox` to `outbox`). Email rows use their template kind
/// (`verification`, `password_reset`, …, `test`).
public enum OutboxJobKind {
    /// Revoke an identity provider's refresh token (Sign in with Apple, on account deletion): the row's
    /// `recipient` is the provider's configured name, its `body` the token sealed as `identities.refresh_token`
    /// holds it (AES-256-GCM under `identity.tokenEncryptionKeyFile`), copied by `UserStoring.deleteUser`.
    public static let providerTokenRevocation = "revoke_provider_token"
}
