/// Step 12 of `Schema.migrations`, in a file of its own so that the list stays readable.
extension Schema {
    // Passkeys (issue 36). `users.passkey_handle` is the account's WebAuthn user handle (base64url of 32 random
    // bytes; NULL until its first passkey ceremony), unique. `passkeys` holds the verified credentials: the
    // credential id (base64url) as primary key, the account (deleted with it), the COSE_Key bytes and algorithm,
    // the sign counter (unsigned 32-bit), flags BE (fixed at registration) and BS (last ceremony) as 0/1, the
    // transports (comma-separated, possibly empty), the AAGUID (16 bytes), the user's name for it, and when it was
    // registered and last used (milliseconds). `passkey_challenges` holds the challenges of the `…/options` calls by
    // the SHA-256 hex of the raw value until a ceremony consumes one or it expires; it is transient: `tokenvend db
    // copy` copies the handles and passkeys, not the challenges.
    static let passkeys = Migration(
        version: 12,
        sqlite: """
            ALTER TABLE users ADD COLUMN passkey_handle TEXT;
            CREATE UNIQUE INDEX users_by_passkey_handle ON users (passkey_handle) WHERE passkey_handle IS NOT NULL;
            CREATE TABLE passkeys (
                credential_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                public_key BLOB NOT NULL,
                algorithm INTEGER NOT NULL,
                sign_count INTEGER NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                backup_eligible INTEGER NOT NULL CHECK (backup_eligible IN (0, 1)),
                backed_up INTEGER NOT NULL CHECK (backed_up IN (0, 1)),
                transports TEXT NOT NULL,
                aaguid BLOB NOT NULL CHECK (length(aaguid) = 16),
                name TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at);
            CREATE TABLE passkey_challenges (
                hash TEXT PRIMARY KEY NOT NULL,
                ceremony TEXT NOT NULL CHECK (ceremony IN ('registration', 'signup', 'authentication')),
                user_id TEXT,
                user_handle TEXT,
                email TEXT,
                expires_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at);
            """,
        postgres: """
            ALTER TABLE users ADD COLUMN passkey_handle TEXT COLLATE "C";
            CREATE UNIQUE INDEX users_by_passkey_handle ON users (passkey_handle) WHERE passkey_handle IS NOT NULL;
            CREATE TABLE passkeys (
                credential_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                public_key BYTEA NOT NULL,
                algorithm BIGINT NOT NULL,
                sign_count BIGINT NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                backup_eligible BIGINT NOT NULL CHECK (backup_eligible IN (0, 1)),
                backed_up BIGINT NOT NULL CHECK (backed_up IN (0, 1)),
                transports TEXT NOT NULL,
                aaguid BYTEA NOT NULL CHECK (octet_length(aaguid) = 16),
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            );
            CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at);
            CREATE TABLE passkey_challenges (
                hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                ceremony TEXT NOT NULL CHECK (ceremony IN ('registration', 'signup', 'authentication')),
                user_id TEXT COLLATE "C",
                user_handle TEXT COLLATE "C",
                email TEXT COLLATE "C",
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at);
            """
    )
}
