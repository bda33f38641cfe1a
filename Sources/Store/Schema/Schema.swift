/// The schema as one ordered list of migrations, each in both dialects. Append new steps; never edit a released
/// one. PostgreSQL uses `BIGINT` where SQLite stores `INTEGER`, with the same names and meanings, so a row of one
/// is a row of the other (`tokenvend db copy`); its text keys use the `"C"` collation, so they sort and compare byte
/// by byte as SQLite's do, whatever the database's default collation.
package enum Schema {
    package static let migrations: [Migration] = [
        Migration(
            version: 1,
            sqlite: """
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
                """,
            postgres: """
                CREATE TABLE users (
                    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    email TEXT COLLATE "C" NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    role TEXT NOT NULL DEFAULT 'user',
                    tenant_id TEXT,
                    disabled_at BIGINT,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE customer_ids (
                    user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    key TEXT COLLATE "C" NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (user_id, key)
                );
                CREATE TABLE sessions (
                    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT NOT NULL,
                    refresh_expires_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT,
                    user_agent TEXT,
                    ip TEXT,
                    counter BIGINT NOT NULL DEFAULT 0 CHECK (counter >= 0),
                    rotated_at BIGINT
                );
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
            sqlite: """
                ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
                DELETE FROM customer_ids WHERE key = 'registered'
                    AND value = (SELECT email FROM users WHERE users.id = customer_ids.user_id);
                CREATE INDEX sessions_by_end
                    ON sessions (min(coalesce(revoked_at, refresh_expires_at), refresh_expires_at));
                """,
            postgres: """
                ALTER TABLE users ADD COLUMN email_verified_at BIGINT;
                DELETE FROM customer_ids WHERE key = 'registered'
                    AND value = (SELECT email FROM users WHERE users.id = customer_ids.user_id);
                CREATE INDEX sessions_by_end
                    ON sessions ((least(coalesce(revoked_at, refresh_expires_at), refresh_expires_at)));
                """
        ),
        // Rate-limit counters shared by the instances of a PostgreSQL deployment (issue 16): one row per bucket,
        // key and fixed window. SQLite deployments keep their counters in memory: their step 3 changes nothing
        // but the version, so both dialects count the same versions.
        Migration(
            version: 3,
            // A comment only: one SQLite instance keeps its counters in memory, so the table is PostgreSQL's.
            sqlite: "-- rate_limits: PostgreSQL only",
            postgres: """
                CREATE TABLE rate_limits (
                    bucket TEXT NOT NULL,
                    key TEXT NOT NULL,
                    window_start BIGINT NOT NULL,
                    count BIGINT NOT NULL,
                    window_end BIGINT NOT NULL,
                    PRIMARY KEY (bucket, key, window_start)
                );
                CREATE INDEX rate_limits_by_end ON rate_limits (window_end);
                """
        ),
        // Sign in with Apple and Google (issue 17): a user made from an identity may have neither an email nor a
        // password, so both become nullable; `identities` links (provider, subject) to a user; `id_token_uses`
        // remembers the hash of each accepted ID token until its expiry, so a replay is refused on every
        // instance. SQLite cannot drop NOT NULL in place: `users` is rebuilt by the procedure of
        // https://www.sqlite.org/lang_altertable.html ("other kinds of table schema changes"), with foreign keys
        // off around the transaction (`rebuildsTables`) so the rows of `customer_ids` and `sessions` stay, and
        // `PRAGMA foreign_key_check` before COMMIT. Same columns in the same order; `users` has no other index,
        // trigger or view to recreate (the email's UNIQUE index comes with the table). Sessions and customer ids
        // of a user deleted by hand with foreign keys off (the sqlite3 shell's default) can never be used: they
        // are deleted first, so that the check cannot block the upgrade forever.
        Migration(
            version: 4,
            sqlite: """
                DELETE FROM sessions WHERE user_id NOT IN (SELECT id FROM users);
                DELETE FROM customer_ids WHERE user_id NOT IN (SELECT id FROM users);
                CREATE TABLE users_v4 (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT UNIQUE,
                    password_hash TEXT,
                    role TEXT NOT NULL DEFAULT 'user',
                    tenant_id TEXT,
                    disabled_at INTEGER,
                    created_at INTEGER NOT NULL,
                    email_verified_at INTEGER
                ) STRICT;
                INSERT INTO users_v4 (
                    id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at)
                SELECT id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at
                FROM users;
                DROP TABLE users;
                ALTER TABLE users_v4 RENAME TO users;
                CREATE TABLE identities (
                    provider TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    email TEXT,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (provider, subject)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX identities_by_user ON identities (user_id);
                CREATE TABLE id_token_uses (
                    hash TEXT PRIMARY KEY NOT NULL,
                    expires_at INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX id_token_uses_by_expiry ON id_token_uses (expires_at);
                """,
            postgres: """
                ALTER TABLE users ALTER COLUMN email DROP NOT NULL, ALTER COLUMN password_hash DROP NOT NULL;
                CREATE TABLE identities (
                    provider TEXT COLLATE "C" NOT NULL,
                    subject TEXT COLLATE "C" NOT NULL,
                    user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    email TEXT COLLATE "C",
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (provider, subject)
                );
                CREATE INDEX identities_by_user ON identities (user_id);
                CREATE TABLE id_token_uses (
                    hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE INDEX id_token_uses_by_expiry ON id_token_uses (expires_at);
                """,
            rebuildsTables: true
        ),
        // The browser sign-in (issue 17): `oauth_flows` holds a flow between the redirect to the provider and its
        // callback (minutes, single use, keyed by the SHA-256 of tokenvend's state); `oauth_codes` holds the
        // one-time codes `POST /auth/token` exchanges (keyed by the SHA-256 of the code), kept 10 minutes past
        // their expiry so that a replay still revokes the session the code issued. Both are transient: `tokenvend
        // db copy` copies neither. A code goes with its user.
        Migration(
            version: 5,
            sqlite: """
                CREATE TABLE oauth_flows (
                    state_hash TEXT PRIMARY KEY NOT NULL,
                    provider TEXT NOT NULL,
                    redirect_uri TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    app_state TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    code_verifier TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX oauth_flows_by_expiry ON oauth_flows (expires_at);
                CREATE TABLE oauth_codes (
                    code_hash TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    provider TEXT NOT NULL,
                    redirect_uri TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    created INTEGER NOT NULL CHECK (created IN (0, 1)),
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    used_at INTEGER,
                    replayed_at INTEGER,
                    session_id TEXT
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_at);
                CREATE INDEX oauth_codes_by_user ON oauth_codes (user_id);
                """,
            postgres: """
                CREATE TABLE oauth_flows (
                    state_hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    provider TEXT NOT NULL,
                    redirect_uri TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    app_state TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    code_verifier TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE INDEX oauth_flows_by_expiry ON oauth_flows (expires_at);
                CREATE TABLE oauth_codes (
                    code_hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    provider TEXT NOT NULL,
                    redirect_uri TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    created BOOLEAN NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    replayed_at BIGINT,
                    session_id TEXT
                );
                CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_at);
                CREATE INDEX oauth_codes_by_user ON oauth_codes (user_id);
                """
        ),
        // Refresh rotations as heap-only (HOT) updates on PostgreSQL (issue 16). A rotation sets `counter`,
        // `last_used_at`, `rotated_at` and `refresh_expires_at`; `sessions_by_end` indexes the last, so no rotation
        // could be HOT, and each wrote a new entry into every index of the table besides the row. Without it, and
        // with pages kept 20 % free for the new row versions, a rotation writes the row version only. The purge
        // (a periodic batch delete) reads the table instead of that index. SQLite has no HOT updates and keeps the
        // index: its step 6 changes nothing but the version.
        Migration(
            version: 6,
            sqlite: "-- sessions_by_end: kept on SQLite, which rewrites index entries either way",
            postgres: """
                DROP INDEX sessions_by_end;
                ALTER TABLE sessions SET (fillfactor = 80);
                """
        ),
        // Server-issued nonces and the source of an email's verification (issue 30). `auth_nonces` holds the
        // nonces of `POST /auth/nonce` until `POST /auth/idtoken` consumes one or it expires, keyed by the SHA-256
        // hex of the raw value (the raw nonce is never stored); it is transient like `oauth_flows`: `tokenvend db
        // copy` copies none. `users.email_verified_by` says who verified the email (`operator`, `email_code`,
        // `provider:<name>`; NULL when unverified or unknown); existing verified rows are backfilled by
        // `Schema.legacyEmailVerifiedBy`: the provider whose identity was created with the account, else the
        // operator (before this step no other path verified an email).
        Migration(
            version: 7,
            sqlite: """
                ALTER TABLE users ADD COLUMN email_verified_by TEXT;
                UPDATE users SET email_verified_by = \(legacyEmailVerifiedBy) WHERE email_verified_at IS NOT NULL;
                CREATE TABLE auth_nonces (
                    hash TEXT PRIMARY KEY NOT NULL,
                    expires_at INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX auth_nonces_by_expiry ON auth_nonces (expires_at);
                """,
            postgres: """
                ALTER TABLE users ADD COLUMN email_verified_by TEXT;
                UPDATE users SET email_verified_by = \(legacyEmailVerifiedBy) WHERE email_verified_at IS NOT NULL;
                CREATE TABLE auth_nonces (
                    hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE INDEX auth_nonces_by_expiry ON auth_nonces (expires_at);
                """
        ),
        // Steps 8 to 12, each in its own file: email codes and the outbox (issue 32), account deletion (issue 33),
        // app integrity (issue 34), DPoP (issue 35), passkeys (issue 36).
        emailCodes,
        accountDeletion,
        appIntegrity,
        dpop,
        passkeys,
    ]

    /// Who verified the email of a `users` row written before version 7 (an SQL expression over `users`, the same
    /// in both dialects): `provider:<name>` when an identity holding the account's email was created with the
    /// account (an identity provider vouched for it, `IdentityStoring.createUser`), else `operator` (`tokenvend
    /// users add` or `users verify-email`, the only other ways an email was verified). Used by step 7 and by
    /// `SQLiteStore.snapshot(readingFileAt:)` for a file not yet migrated.
    package static let legacyEmailVerifiedBy = """
        coalesce((SELECT 'provider:' || identities.provider FROM identities
            WHERE identities.user_id = users.id AND identities.created_at = users.created_at
                AND identities.email = users.email
            ORDER BY identities.provider LIMIT 1), 'operator')
        """
}
