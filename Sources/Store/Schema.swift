/// The schema as an ordered list of migrations. Append new steps; never edit a released one.
enum Schema {
    static let migrations: [Migration] = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    role TEXT NOT NULL DEFAULT 'user',
                    tenant_id TEXT,
                    disabled_at INTEGER,
                    created_at INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE customer_ids (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (user_id, key)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at INTEGER NOT NULL,
                    last_used_at INTEGER NOT NULL,
                    refresh_expires_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    revoked_at INTEGER,
                    user_agent TEXT,
                    ip TEXT,
                    counter INTEGER NOT NULL DEFAULT 0 CHECK (counter >= 0),
                    rotated_at INTEGER
                ) STRICT;
                CREATE INDEX sessions_by_user ON sessions (user_id, revoked_at);
                CREATE INDEX sessions_by_expiry ON sessions (expires_at);
                """
        ),
        // Unverified emails stop being customer ids (issue 13). Existing users get `email_verified_at` NULL:
        // nothing records which of them registered themselves, so none is taken as verified. The automatic
        // `registered = email` rows that version 1 wrote are dropped; `registered` is now derived on read
        // (the user id, or the verified email when configured) unless an operator set it explicitly.
        // `sessions_by_end` orders sessions by the moment they stopped being usable, for the purge.
        Migration(
            version: 2,
            sql: """
                ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
                DELETE FROM customer_ids WHERE key = 'registered'
                    AND value = (SELECT email FROM users WHERE users.id = customer_ids.user_id);
                CREATE INDEX sessions_by_end
                    ON sessions (min(coalesce(revoked_at, refresh_expires_at), refresh_expires_at));
                """
        ),
    ]
}
