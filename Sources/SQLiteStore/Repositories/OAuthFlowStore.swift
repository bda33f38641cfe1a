public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Browser sign-in flows and one-time codes in SQLite (see `OAuthFlowStoring`).
///
/// Every method that decides on a row's state (`takeFlow`, `redeemCode`, `attachSession`) reads and changes it
/// in one write transaction on the database's single writer, so two presentations of one code run one after the
/// other: the first redeems, the second finds it used.
public struct OAuthFlowStore: OAuthFlowStoring {
    /// The database the flows and codes live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    public func saveFlow(_ flow: OAuthFlow, maxLive: Int) async throws(StoreError) -> Bool {
        let bindings: [SQLValue] = [
            .text(flow.stateHash), .text(flow.provider), .text(flow.redirectURI), .text(flow.codeChallenge),
            .text(flow.appState), .text(flow.nonce), .text(flow.codeVerifier),
            .integer(flow.createdAt.storeMilliseconds), .integer(flow.expiresAt.storeMilliseconds),
        ]
        return try await database.write { (connection: Connection) throws(StoreError) -> Bool in
            if maxLive < .max {
                // Counted on the expiry index and never past the cap, inside the write: the single writer makes the
                // count and the insert one step.
                let live = try connection.queryOne(
                    "SELECT count(*) FROM (SELECT 1 FROM oauth_flows WHERE expires_at > ? LIMIT ?)",
                    [.integer(flow.createdAt.storeMilliseconds), .integer(Int64(maxLive))])
                guard try (live?.int64(0) ?? 0) < Int64(maxLive) else { return false }
            }
            _ = try connection.execute(
                "INSERT INTO oauth_flows (\(OAuthFlow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", bindings)
            return true
        }
    }

    public func takeFlow(stateHash: String, now: Date) async throws(StoreError) -> OAuthFlow? {
        try await database.write { (connection: Connection) throws(StoreError) -> OAuthFlow? in
            guard
                let row = try connection.queryOne(
                    "SELECT \(OAuthFlow.columns) FROM oauth_flows WHERE state_hash = ?", [.text(stateHash)])
            else { return nil }
            _ = try connection.execute("DELETE FROM oauth_flows WHERE state_hash = ?", [.text(stateHash)])
            let flow = try OAuthFlow(row: row)
            return flow.expiresAt.storeMilliseconds > now.storeMilliseconds ? flow : nil
        }
    }

    public func saveCode(_ code: AuthorizationCode) async throws(StoreError) {
        let bindings: [SQLValue] = [
            .text(code.codeHash), .text(code.userID), .text(code.provider), .text(code.redirectURI),
            .text(code.codeChallenge), .integer(code.created ? 1 : 0), .integer(code.createdAt.storeMilliseconds),
            .integer(code.expiresAt.storeMilliseconds),
        ]
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.insertCode(bindings, connection)
        }
    }

    public func redeemCode(codeHash: String, now: Date) async throws(StoreError) -> CodeRedemption {
        let time = SQLValue.integer(now.storeMilliseconds)
        return try await database.write { (connection: Connection) throws(StoreError) -> CodeRedemption in
            guard
                let row = try connection.queryOne(
                    "SELECT \(AuthorizationCode.columns), used_at, session_id FROM oauth_codes WHERE code_hash = ?",
                    [.text(codeHash)])
            else { return .unknown }
            let code = try AuthorizationCode(row: row)
            if try row.optionalInt64(8) != nil {
                _ = try connection.execute(
                    "UPDATE oauth_codes SET replayed_at = coalesce(replayed_at, ?) WHERE code_hash = ?",
                    [time, .text(codeHash)])
                return .replayed(userID: code.userID, sessionID: try row.optionalString(9))
            }
            guard code.expiresAt.storeMilliseconds > now.storeMilliseconds else {
                _ = try connection.execute("DELETE FROM oauth_codes WHERE code_hash = ?", [.text(codeHash)])
                return .unknown
            }
            _ = try connection.execute(
                "UPDATE oauth_codes SET used_at = ? WHERE code_hash = ?", [time, .text(codeHash)])
            return .redeemed(code)
        }
    }

    public func attachSession(codeHash: String, sessionID: String) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                """
                UPDATE oauth_codes SET session_id = ?
                WHERE code_hash = ? AND used_at IS NOT NULL AND replayed_at IS NULL AND session_id IS NULL
                """, [.text(sessionID), .text(codeHash)]) == 1
        }
    }

    @discardableResult
    public func pruneFlows(now: Date) async throws(StoreError) -> Int {
        let time = now.storeMilliseconds
        let cutoff = now.addingTimeInterval(-OAuthCodes.retention).storeMilliseconds
        return try await database.write { (connection: Connection) throws(StoreError) in
            let flows = try connection.execute("DELETE FROM oauth_flows WHERE expires_at <= ?", [.integer(time)])
            return try flows + connection.execute("DELETE FROM oauth_codes WHERE expires_at <= ?", [.integer(cutoff)])
        }
    }

    static func insertCode(_ bindings: [SQLValue], _ connection: Connection) throws(StoreError) {
        do {
            _ = try connection.execute(
                "INSERT INTO oauth_codes (\(AuthorizationCode.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", bindings)
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }
}
