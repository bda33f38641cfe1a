/// Step 10 of `Schema.migrations`, in a file of its own so that the list stays readable.
extension Schema {
    // App integrity (issue 34). `integrity_challenges` holds the challenges of `POST /integrity/challenge` until
    // an exchange consumes one or it expires, keyed by the SHA-256 hex of the raw value (the raw challenge is
    // never stored); it is transient like `auth_nonces`: `tokenvend db copy` copies none. `app_attest_keys` holds
    // the App Attest keys whose attestation verified: the key id as the app sent it, the public point
    // (uncompressed SEC1, 65 bytes), the counter of the last accepted assertion (an unsigned 32-bit value, as the
    // authenticator data carries it), the app id (`TEAMID.bundle.id`), the environment from the AAGUID, and when it
    // was attested and last asserted (milliseconds; NULL before the first assertion). `tokenvend db copy` copies
    // the keys. Neither table references a user: keys belong to an app installation.
    static let appIntegrity = Migration(
        version: 10,
        sqlite: """
            CREATE TABLE integrity_challenges (
                hash TEXT PRIMARY KEY NOT NULL,
                expires_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX integrity_challenges_by_expiry ON integrity_challenges (expires_at);
            CREATE TABLE app_attest_keys (
                key_id TEXT PRIMARY KEY NOT NULL,
                public_key BLOB NOT NULL CHECK (length(public_key) = 65),
                counter INTEGER NOT NULL CHECK (counter BETWEEN 0 AND 4294967295),
                app_id TEXT NOT NULL,
                environment TEXT NOT NULL CHECK (environment IN ('production', 'development')),
                created_at INTEGER NOT NULL,
                last_asserted_at INTEGER
            ) STRICT, WITHOUT ROWID;
            """,
        postgres: """
            CREATE TABLE integrity_challenges (
                hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX integrity_challenges_by_expiry ON integrity_challenges (expires_at);
            CREATE TABLE app_attest_keys (
                key_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                public_key BYTEA NOT NULL CHECK (octet_length(public_key) = 65),
                counter BIGINT NOT NULL CHECK (counter BETWEEN 0 AND 4294967295),
                app_id TEXT NOT NULL,
                environment TEXT NOT NULL CHECK (environment IN ('production', 'development')),
                created_at BIGINT NOT NULL,
                last_asserted_at BIGINT
            );
            """
    )
}
