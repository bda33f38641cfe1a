public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Browser sign-in flows and one-time codes in PostgreSQL, with the results and errors of `OAuthFlowStore`
/// (SQLite), shared by every instance of the deployment.
///
/// Single use across instances comes from one row-changing statement per decision: `takeFlow` is a
/// `DELETE … RETURNING` (of two instances taking one flow, one deletes and returns it; the other waits for that
/// commit and deletes nothing); `redeemCode` is an `UPDATE … RETURNING` whose `SET` reads the row it changes (the
/// second of two concurrent presentations waits for the first's commit, re-reads the row under READ COMMITTED and
/// finds it used). None of these writes changes a session's status, so the status caches stay.
public struct PostgresOAuthFlowStore: OAuthFlowStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    public func saveFlow(_ flow: OAuthFlow, maxLive: Int) async throws(StoreError) -> Bool {
        // The count of live flows (on the expiry index, never past the cap) and the insert in one statement.
        let rows = try await context.writeCounters([
            PostgresStatement(
                "oauth.saveFlowCapped",
                """
                INSERT INTO oauth_flows (\(OAuthFlow.columns))
                SELECT $1, $2, $3, $4, $5, $6, $7, $8::bigint, $9::bigint
                WHERE (SELECT count(*) FROM (
                    SELECT 1 FROM oauth_flows WHERE expires_at > $8::bigint LIMIT $10::bigint) AS live) < $10::bigint
                """,
                [
                    flow.stateHash, flow.provider, flow.redirectURI, flow.codeChallenge, flow.appState, flow.nonce,
                    flow.codeVerifier, String(flow.createdAt.storeMilliseconds),
                    String(flow.expiresAt.storeMilliseconds), String(maxLive),
                ])
        ])
        return rows[0].affected == 1
    }

    public func takeFlow(stateHash: String, now: Date) async throws(StoreError) -> OAuthFlow? {
        // Deleted whether live or expired: an expired flow is gone as well as refused.
        let rows = try await context.writeCounters([
            PostgresStatement(
                "oauth.takeFlow",
                """
                DELETE FROM oauth_flows WHERE state_hash = $1
                RETURNING \(OAuthFlow.columns), expires_at > \(PostgresContext.now(2))
                """, [stateHash, context.time(now)])
        ])
        guard let row = rows[0].first, try row.bool(9) else { return nil }
        return OAuthFlow(
            stateHash: try row.string(0), provider: try row.string(1), redirectURI: try row.string(2),
            codeChallenge: try row.string(3), appState: try row.string(4), nonce: try row.string(5),
            codeVerifier: try row.string(6), createdAt: Date(storeMilliseconds: try row.int64(7)),
            expiresAt: Date(storeMilliseconds: try row.int64(8)))
    }

    public func saveCode(_ code: AuthorizationCode) async throws(StoreError) {
        do {
            _ = try await context.writeCounters([
                PostgresStatement(
                    "oauth.saveCode",
                    """
                    INSERT INTO oauth_codes (\(AuthorizationCode.columns))
                    VALUES ($1, $2, $3, $4, $5, $6::boolean, $7::bigint, $8::bigint)
                    """,
                    [
                        code.codeHash, code.userID, code.provider, code.redirectURI, code.codeChallenge,
                        code.created ? "true" : "false", String(code.createdAt.storeMilliseconds),
                        String(code.expiresAt.storeMilliseconds),
                    ])
            ])
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }

    public func redeemCode(codeHash: String, now: Date) async throws(StoreError) -> CodeRedemption {
        let time = context.time(now)
        // One UPDATE decides: an unused live code becomes used (replayed_at stays NULL: redeemed); a used code, live
        // or expired, becomes replayed (replayed_at set: replayed). `SET` reads the old row, `RETURNING` the new.
        // An unused expired code matches nothing and the DELETE removes it. READ COMMITTED explicitly: a
        // concurrent presentation must re-read the row it waited for, not fail on a serialization error.
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            PostgresStatement(
                "oauth.redeemCode",
                """
                UPDATE oauth_codes SET
                    used_at = coalesce(used_at, \(PostgresContext.now(2))),
                    replayed_at = CASE WHEN used_at IS NULL THEN replayed_at
                        ELSE coalesce(replayed_at, \(PostgresContext.now(2))) END
                WHERE code_hash = $1 AND (used_at IS NOT NULL OR expires_at > \(PostgresContext.now(2)))
                RETURNING \(AuthorizationCode.columns), replayed_at IS NULL, session_id
                """, [codeHash, time]),
            PostgresStatement(
                "oauth.dropExpiredCode",
                """
                DELETE FROM oauth_codes
                WHERE code_hash = $1 AND used_at IS NULL AND expires_at <= \(PostgresContext.now(2))
                """, [codeHash, time]),
            .commit,
        ]
        let rows = try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)
        }
        guard let row = rows[1].first else { return .unknown }
        let code = AuthorizationCode(
            codeHash: try row.string(0), userID: try row.string(1), provider: try row.string(2),
            redirectURI: try row.string(3), codeChallenge: try row.string(4), created: try row.bool(5),
            createdAt: Date(storeMilliseconds: try row.int64(6)),
            expiresAt: Date(storeMilliseconds: try row.int64(7)))
        guard try row.bool(8) else { return .replayed(userID: code.userID, sessionID: try row.optionalString(9)) }
        return .redeemed(code)
    }

    public func attachSession(codeHash: String, sessionID: String) async throws(StoreError) -> Bool {
        // Waits for a concurrent replay's UPDATE of the row and then re-checks `replayed_at` (READ COMMITTED).
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            PostgresStatement(
                "oauth.attachSession",
                """
                UPDATE oauth_codes SET session_id = $2
                WHERE code_hash = $1 AND used_at IS NOT NULL AND replayed_at IS NULL AND session_id IS NULL
                """, [codeHash, sessionID]),
            .commit,
        ]
        let rows = try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)
        }
        return rows[1].affected == 1
    }

    @discardableResult
    public func pruneFlows(now: Date) async throws(StoreError) -> Int {
        let retention = String(Int64(OAuthCodes.retention * 1000))
        let time = context.time(now)
        let rows = try await context.writeCounters([
            PostgresStatement(
                "oauth.pruneFlows", "DELETE FROM oauth_flows WHERE expires_at <= \(PostgresContext.now(1))", [time]),
            PostgresStatement(
                "oauth.pruneCodes",
                "DELETE FROM oauth_codes WHERE expires_at <= \(PostgresContext.now(1)) - $2::bigint",
                [time, retention]),
        ])
        return rows[0].affected + rows[1].affected
    }
}
