internal import Cryptography
public import Store

extension PostgresStore {
    /// Writes a snapshot of another store (`SQLiteStore.snapshot()`) into this one, in one transaction (sent in
    /// pipelines of 500 statements, each with a deadline of 2 minutes, without `statement_timeout`), for
    /// `tokenvend db copy`: users (with their passkey user handles), stored customer ids, identities (with their
    /// sealed provider tokens and forwarding), the records of deleted accounts, the attested App Attest keys with
    /// their counters (so attested installations keep asserting), the passkeys with their counters (so they keep
    /// signing in), and live sessions with their counters and DPoP keys, so refresh tokens issued before the move
    /// keep rotating after it, bound as they were. Transient tables are neither read nor written: browser sign-in
    /// flows and codes, nonces, integrity and passkey challenges, DPoP proof ids, email codes and the
    /// outbox, pending provider-token revocations included (drain it before moving; a replacing copy deletes the
    /// target's email codes with their users and leaves its outbox alone). The target's records of deleted accounts are kept, also by a replacing copy.
    ///
    /// Idempotent, and never weakens the target: rows are upserted by primary key keeping the stronger state — a
    /// revocation or a disabled user on either side stays, the higher refresh counter wins (with the refresh
    /// expiry and rotation time of its row), a key's higher App Attest counter wins (with its last assertion
    /// time: a counter never goes back), so does a passkey's (with its last use and backup state; a user handle
    /// the target holds is kept when the source has none), a session's DPoP binding is never removed, and a
    /// session revoked on the
    /// source (not yet purged) is revoked on the target. Target sessions missing from the snapshot are left as they are unless `replacing`.
    /// Copying again after instances started writing to the target is still unsafe (a password or customer id
    /// changed there is overwritten by the source's): stop writes on the source first.
    /// - Parameter replacing: when false, a target that already holds users other than the snapshot's is
    ///   refused; when true, the target's users, customer ids, identities, sessions, passkeys and App Attest keys
    ///   are deleted first.
    /// - Returns: how many rows were written.
    /// - Throws: `.constraint(.other)` for a refused non-empty target; `.unavailable` when the database is
    ///   unreachable.
    public func copy(from snapshot: StoreSnapshot, replacing: Bool) async throws(StoreError) -> CopyReport {
        let ids = snapshot.users.map(\.id)
        var statements: [PostgresStatement] = [.begin]
        // Refuses (by failing the transaction) when another user is present and the caller did not ask to replace.
        statements.append(
            PostgresStatement(
                "copy.check",
                """
                SELECT count(*) FROM users WHERE NOT (id = ANY($1::text[]))
                """, [Self.arrayLiteral(ids)]))
        if replacing {
            statements.append(PostgresStatement(unprepared: "DELETE FROM sessions"))
            statements.append(PostgresStatement(unprepared: "DELETE FROM customer_ids"))
            statements.append(PostgresStatement(unprepared: "DELETE FROM identities"))
            statements.append(PostgresStatement(unprepared: "DELETE FROM passkeys"))
            statements.append(PostgresStatement(unprepared: "DELETE FROM users"))
            statements.append(PostgresStatement(unprepared: "DELETE FROM app_attest_keys"))
        }
        for user in snapshot.users {
            statements.append(
                PostgresStatement(
                    "copy.user",
                    """
                    INSERT INTO users (\(PostgresUserStore.columns), passkey_handle)
                    VALUES ($1, $2, $3, $4, $5, $6::bigint, $7::bigint, $8::bigint, $9, $10)
                    ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, password_hash = EXCLUDED.password_hash,
                        passkey_handle = coalesce(EXCLUDED.passkey_handle, users.passkey_handle),
                        role = EXCLUDED.role, tenant_id = EXCLUDED.tenant_id,
                        disabled_at = coalesce(users.disabled_at, EXCLUDED.disabled_at),
                        created_at = EXCLUDED.created_at,
                        email_verified_at = coalesce(users.email_verified_at, EXCLUDED.email_verified_at),
                        email_verified_by = CASE WHEN users.email_verified_at IS NULL THEN EXCLUDED.email_verified_by
                            ELSE coalesce(users.email_verified_by, EXCLUDED.email_verified_by) END
                    """,
                    [
                        user.id, user.email, user.passwordHash, user.role, user.tenantID,
                        user.disabledAt.map { String($0.storeMilliseconds) },
                        String(user.createdAt.storeMilliseconds),
                        user.emailVerifiedAt.map { String($0.storeMilliseconds) },
                        user.emailVerifiedBy?.storedValue, snapshot.passkeyHandles[user.id],
                    ]))
        }
        for id in snapshot.customerIDs {
            statements.append(
                PostgresStatement(
                    "copy.customerID",
                    """
                    INSERT INTO customer_ids (user_id, key, value) VALUES ($1, $2, $3)
                    ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value
                    """, [id.userID, id.key, id.value]))
        }
        // An identity is the source's link: (provider, subject) moves to the source's user if the target had
        // linked it elsewhere.
        for identity in snapshot.identities {
            statements.append(
                PostgresStatement(
                    "copy.identity",
                    """
                    INSERT INTO identities (\(PostgresIdentityStore.columns), refresh_token, email_forwarding)
                    VALUES ($1, $2, $3, $4, $5::bigint, decode($6, 'hex'), $7::boolean)
                    ON CONFLICT (provider, subject) DO UPDATE SET user_id = EXCLUDED.user_id, email = EXCLUDED.email,
                        created_at = EXCLUDED.created_at, refresh_token = EXCLUDED.refresh_token,
                        email_forwarding = EXCLUDED.email_forwarding
                    """,
                    [
                        identity.provider, identity.subject, identity.userID, identity.email,
                        String(identity.createdAt.storeMilliseconds), identity.sealedRefreshToken.map(Hex.encode),
                        identity.emailForwarding.map { $0 ? "true" : "false" },
                    ]))
        }
        // The audit records: the target's own are kept (a record is never lost), the source's added.
        for record in snapshot.deletedAccounts {
            statements.append(
                PostgresStatement(
                    "copy.deletedAccount",
                    """
                    INSERT INTO deleted_accounts (user_id, deleted_at, method) VALUES ($1, $2::bigint, $3)
                    ON CONFLICT (user_id) DO UPDATE SET deleted_at = greatest(deleted_accounts.deleted_at,
                        EXCLUDED.deleted_at),
                        method = CASE WHEN EXCLUDED.deleted_at > deleted_accounts.deleted_at THEN EXCLUDED.method
                            ELSE deleted_accounts.method END
                    """, [record.userID, String(record.deletedAt.storeMilliseconds), record.method.rawValue]))
        }
        // A key's public key, app and environment never change; the higher counter wins with its assertion time.
        for key in snapshot.attestedKeys {
            statements.append(
                PostgresStatement(
                    "copy.attestedKey",
                    """
                    INSERT INTO app_attest_keys (
                        key_id, public_key, counter, app_id, environment, created_at, last_asserted_at)
                    VALUES ($1, decode($2, 'hex'), $3::bigint, $4, $5, $6::bigint, $7::bigint)
                    ON CONFLICT (key_id) DO UPDATE SET public_key = EXCLUDED.public_key, app_id = EXCLUDED.app_id,
                        environment = EXCLUDED.environment, created_at = EXCLUDED.created_at,
                        counter = greatest(app_attest_keys.counter, EXCLUDED.counter),
                        last_asserted_at = CASE WHEN EXCLUDED.counter > app_attest_keys.counter
                            THEN EXCLUDED.last_asserted_at ELSE app_attest_keys.last_asserted_at END
                    """,
                    [
                        key.keyID, Hex.encode(key.publicKey), String(key.counter), key.appID,
                        key.environment.rawValue, String(key.createdAt.storeMilliseconds),
                        key.lastAssertedAt.map { String($0.storeMilliseconds) },
                    ]))
        }
        // A passkey's key, algorithm, flag BE, transports, AAGUID and registration never change; the higher
        // counter wins, the later use with its backup state.
        for passkey in snapshot.passkeys {
            statements.append(
                PostgresStatement(
                    "copy.passkey",
                    """
                    INSERT INTO passkeys (\(PostgresPasskeyStore.columns)) VALUES (\(PostgresPasskeyStore.values))
                    ON CONFLICT (credential_id) DO UPDATE SET user_id = EXCLUDED.user_id,
                        public_key = EXCLUDED.public_key, algorithm = EXCLUDED.algorithm,
                        backup_eligible = EXCLUDED.backup_eligible, transports = EXCLUDED.transports,
                        aaguid = EXCLUDED.aaguid, name = EXCLUDED.name, created_at = EXCLUDED.created_at,
                        sign_count = greatest(passkeys.sign_count, EXCLUDED.sign_count),
                        backed_up = CASE WHEN coalesce(EXCLUDED.last_used_at, EXCLUDED.created_at)
                            > coalesce(passkeys.last_used_at, passkeys.created_at)
                            THEN EXCLUDED.backed_up ELSE passkeys.backed_up END,
                        last_used_at = greatest(passkeys.last_used_at, EXCLUDED.last_used_at)
                    """, PostgresPasskeyStore.parameters(passkey)))
        }
        for session in snapshot.sessions {
            statements.append(
                PostgresStatement(
                    "copy.session",
                    """
                    INSERT INTO sessions (\(PostgresSessionStore.columns))
                    VALUES ($1, $2, $3::bigint, $4::bigint, $5::bigint, $6::bigint, $7::bigint, $8, $9, $10::bigint,
                        $11::bigint, $12)
                    ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, created_at = EXCLUDED.created_at,
                        expires_at = EXCLUDED.expires_at, user_agent = EXCLUDED.user_agent, ip = EXCLUDED.ip,
                        dpop_jkt = coalesce(sessions.dpop_jkt, EXCLUDED.dpop_jkt),
                        revoked_at = coalesce(sessions.revoked_at, EXCLUDED.revoked_at),
                        counter = greatest(sessions.counter, EXCLUDED.counter),
                        last_used_at = CASE WHEN EXCLUDED.counter > sessions.counter
                            THEN EXCLUDED.last_used_at ELSE sessions.last_used_at END,
                        refresh_expires_at = CASE WHEN EXCLUDED.counter > sessions.counter
                            THEN EXCLUDED.refresh_expires_at ELSE sessions.refresh_expires_at END,
                        rotated_at = CASE WHEN EXCLUDED.counter > sessions.counter
                            THEN EXCLUDED.rotated_at ELSE sessions.rotated_at END
                    """,
                    [
                        session.id, session.userID, String(session.createdAt.storeMilliseconds),
                        String(session.lastUsedAt.storeMilliseconds),
                        String(session.refreshExpiresAt.storeMilliseconds),
                        String(session.expiresAt.storeMilliseconds),
                        session.revokedAt.map { String($0.storeMilliseconds) }, session.userAgent, session.ip,
                        String(session.counter), session.rotatedAt.map { String($0.storeMilliseconds) },
                        session.dpopThumbprint,
                    ]))
        }
        // A session revoked on the source since an earlier copy is revoked here too; one the target does not
        // hold is not created (it is dead either way).
        for session in snapshot.revokedSessions {
            guard let revokedAt = session.revokedAt else { continue }
            statements.append(
                PostgresStatement(
                    "copy.revoke", "UPDATE sessions SET revoked_at = coalesce(revoked_at, $2::bigint) WHERE id = $1",
                    [session.id, String(revokedAt.storeMilliseconds)]))
        }
        statements.append(PostgresStatement(unprepared: "SELECT pg_notify('\(PostgresChangeFeed.channel)', 'copy')"))
        let report = CopyReport(
            users: snapshot.users.count, customerIDs: snapshot.customerIDs.count, sessions: snapshot.sessions.count,
            identities: snapshot.identities.count, deletedAccounts: snapshot.deletedAccounts.count,
            attestedKeys: snapshot.attestedKeys.count, passkeys: snapshot.passkeys.count)
        let writes = Array(statements.dropFirst(2)) + [.commit]
        let check = Array(statements.prefix(2))
        let batchTimeout = max(configuration.queryTimeout, Self.copyBatchTimeout)
        return try await sessionStore.context.transaction { (connection: PostgresConnection) throws(StoreError) in
            // First the check alone: refusing must not depend on the writes after it. The copy is one
            // transaction, however long: no server-side statement limit inside it.
            let checked = try connection.run(
                [check[0], PostgresStatement(unprepared: "SET LOCAL statement_timeout = 0"), check[1]],
                deadline: .now + batchTimeout)
            let others = try checked[2].first?.int64(0) ?? 0
            guard others == 0 || replacing else { throw .constraint(.other) }
            // Then the writes in pipelines of `copyBatchSize` statements, each with its own deadline.
            var start = 0
            while start < writes.count {
                let end = min(start + Self.copyBatchSize, writes.count)
                _ = try connection.run(Array(writes[start..<end]), deadline: .now + batchTimeout)
                start = end
            }
            return report
        }
    }

    /// Statements per pipeline in `copy(from:replacing:)`.
    static let copyBatchSize = 500
    /// The client-side deadline of one batch of `copy(from:replacing:)` (at least the query timeout).
    static let copyBatchTimeout = Duration.seconds(120)

    /// A PostgreSQL array literal of text values (`{"a","b"}`), quoting every element.
    static func arrayLiteral(_ values: [String]) -> String {
        let quoted = values.map { value in
            "\"" + value.replacingBackslashesAndQuotes() + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}

extension String {
    fileprivate func replacingBackslashesAndQuotes() -> String {
        var result = ""
        for character in self {
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
