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
        )
    ]
}
