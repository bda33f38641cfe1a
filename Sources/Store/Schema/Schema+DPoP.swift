/// Step 11 of `Schema.migrations`, in a file of its own so that the list stays readable.
extension Schema {
    // DPoP (issue 35). `sessions.dpop_jkt` is the RFC 7638 thumbprint of the key a session is bound to (NULL:
    // unbound); it is set when the session starts and never changes. `dpop_proofs` holds, on PostgreSQL only, the
    // accepted proofs by the SHA-256 hex of thumbprint and `jti` until their window ends, so that every instance
    // refuses a replayed proof; SQLite serves one instance, which keeps them in memory. Transient: `tokenvend db
    // copy` copies none.
    static let dpop = Migration(
        version: 11,
        sqlite: """
            ALTER TABLE sessions ADD COLUMN dpop_jkt TEXT;
            -- dpop_proofs: PostgreSQL only
            """,
        postgres: """
            ALTER TABLE sessions ADD COLUMN dpop_jkt TEXT;
            CREATE TABLE dpop_proofs (
                hash TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX dpop_proofs_by_expiry ON dpop_proofs (expires_at);
            """
    )
}
