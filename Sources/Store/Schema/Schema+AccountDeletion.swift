/// Step 9 of `Schema.migrations`, in a file of its own so that the list stays readable.
extension Schema {
    // Account deletion and Sign in with Apple revocation (issue 33). The outbox becomes the one durable queue
    // of outbound work: `email_outbox` is renamed `outbox` (rows kept; its index follows: SQLite has no ALTER
    // INDEX … RENAME, so it is dropped and recreated), and holds `revoke_provider_token` rows next to email
    // messages. `deleted_accounts` keeps, per deleted account, only the former user id, when and how
    // (`AccountDeletionMethod`): no personal data. `identities.refresh_token` holds the provider's refresh
    // token sealed by the service (NULL: none); `identities.email_forwarding` whether the provider's relay
    // forwards (NULL unknown, 0/1). `tokenvend db copy` copies `deleted_accounts` and both columns; the
    // outbox stays transient (pending revocations are not copied: drain it before moving).
    static let accountDeletion = Migration(
        version: 9,
        sqlite: """
            ALTER TABLE email_outbox RENAME TO outbox;
            DROP INDEX email_outbox_by_due;
            CREATE INDEX outbox_by_due ON outbox (failed_at, next_attempt_at);
            CREATE TABLE deleted_accounts (
                user_id TEXT PRIMARY KEY NOT NULL,
                deleted_at INTEGER NOT NULL,
                method TEXT NOT NULL
            ) STRICT, WITHOUT ROWID;
            ALTER TABLE identities ADD COLUMN refresh_token BLOB;
            ALTER TABLE identities ADD COLUMN email_forwarding INTEGER CHECK (email_forwarding IN (0, 1));
            """,
        postgres: """
            ALTER TABLE email_outbox RENAME TO outbox;
            ALTER INDEX email_outbox_by_due RENAME TO outbox_by_due;
            ALTER TABLE outbox RENAME CONSTRAINT email_outbox_pkey TO outbox_pkey;
            ALTER TABLE outbox RENAME CONSTRAINT email_outbox_attempts_check TO outbox_attempts_check;
            CREATE TABLE deleted_accounts (
                user_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                deleted_at BIGINT NOT NULL,
                method TEXT NOT NULL
            );
            ALTER TABLE identities ADD COLUMN refresh_token BYTEA, ADD COLUMN email_forwarding BOOLEAN;
            """
    )
}
