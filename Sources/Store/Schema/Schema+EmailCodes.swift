/// Step 8 of `Schema.migrations`, in a file of its own so that the list stays readable.
extension Schema {
    // Email codes and the durable outbox (issue 32). `email_codes` holds one code per (purpose, subject) as
    // the caller's keyed hash (the code itself is never stored), with its wrong tries, until it is used, killed
    // or expires; a code for an account goes with its user. `email_outbox` holds each message from the request
    // that queued it (in the same transaction as its code) until a sender delivered it: `body` is the message
    // sealed by the caller, set to NULL once the sender gives up (the row stays, without it, for `tokenvend
    // email outbox` until the purge); `claimed_by`/`claimed_until` are a sender's lease, so a row whose sender
    // died is due again at the end of it. `email_outbox_by_due` serves the claim (`failed_at IS NULL AND
    // next_attempt_at <= now`) and the purge of given-up rows. Both are transient like `oauth_flows`:
    // `tokenvend db copy` copies neither (drain the outbox before moving).
    static let emailCodes = Migration(
        version: 8,
        sqlite: """
            CREATE TABLE email_codes (
                purpose TEXT NOT NULL,
                subject TEXT NOT NULL,
                hash TEXT NOT NULL,
                user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                email TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                PRIMARY KEY (purpose, subject)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX email_codes_by_expiry ON email_codes (expires_at);
            CREATE INDEX email_codes_by_user ON email_codes (user_id);
            CREATE TABLE email_outbox (
                id TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL,
                recipient TEXT NOT NULL,
                body BLOB,
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                created_at INTEGER NOT NULL,
                next_attempt_at INTEGER NOT NULL,
                claimed_by TEXT,
                claimed_until INTEGER,
                failed_at INTEGER,
                last_error TEXT
            ) STRICT;
            CREATE INDEX email_outbox_by_due ON email_outbox (failed_at, next_attempt_at);
            """,
        postgres: """
            CREATE TABLE email_codes (
                purpose TEXT COLLATE "C" NOT NULL,
                subject TEXT COLLATE "C" NOT NULL,
                hash TEXT NOT NULL,
                user_id TEXT COLLATE "C" REFERENCES users(id) ON DELETE CASCADE,
                email TEXT COLLATE "C" NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                PRIMARY KEY (purpose, subject)
            );
            CREATE INDEX email_codes_by_expiry ON email_codes (expires_at);
            CREATE INDEX email_codes_by_user ON email_codes (user_id);
            CREATE TABLE email_outbox (
                id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL,
                recipient TEXT COLLATE "C" NOT NULL,
                body BYTEA,
                attempts BIGINT NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                created_at BIGINT NOT NULL,
                next_attempt_at BIGINT NOT NULL,
                claimed_by TEXT,
                claimed_until BIGINT,
                failed_at BIGINT,
                last_error TEXT
            );
            CREATE INDEX email_outbox_by_due ON email_outbox (failed_at, next_attempt_at);
            """
    )
}
