public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Rate-limit counters in the `rate_limits` table, shared by every instance on the database: one row per
/// `(bucket, key, window_start)`, incremented by one upsert that also reads the previous window's count. Window
/// boundaries come from the store's clock (the database's by default), so instances with skewed clocks agree.
/// Checks read without writing, and no counter write ends the instance's kept session-status answers.
public struct PostgresRateLimitCounters: RateLimitCounters {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    public func add(_ amount: Int, bucket: String, key: String, window: Duration, now: Date) async throws(StoreError)
        -> RateCount
    {
        let length = max(1, window.storeMilliseconds)
        let rows = try await context.writeCounters([
            PostgresStatement(
                "rateLimits.add",
                """
                WITH t AS (SELECT n AS now, n - n % $3::bigint AS start FROM (SELECT \(PostgresContext.now(5)) AS n) c),
                u AS (
                    INSERT INTO rate_limits (bucket, key, window_start, count, window_end)
                    SELECT $1, $2, t.start, $4::bigint, t.start + $3::bigint FROM t
                    ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + EXCLUDED.count
                    RETURNING count)
                SELECT (SELECT count FROM u),
                    coalesce((SELECT r.count FROM rate_limits r
                              WHERE r.bucket = $1 AND r.key = $2 AND r.window_start = t.start - $3::bigint), 0),
                    t.now - t.start
                FROM t
                """, [bucket, key, String(length), String(max(0, amount)), context.time(now)])
        ])
        return try Self.count(rows, length: length)
    }

    public func count(bucket: String, key: String, window: Duration, now: Date) async throws(StoreError) -> RateCount {
        let length = max(1, window.storeMilliseconds)
        let rows = try await context.read([
            PostgresStatement(
                "rateLimits.count",
                """
                WITH t AS (SELECT n AS now, n - n % $3::bigint AS start FROM (SELECT \(PostgresContext.now(4)) AS n) c)
                SELECT
                    coalesce((SELECT r.count FROM rate_limits r
                              WHERE r.bucket = $1 AND r.key = $2 AND r.window_start = t.start), 0),
                    coalesce((SELECT r.count FROM rate_limits r
                              WHERE r.bucket = $1 AND r.key = $2 AND r.window_start = t.start - $3::bigint), 0),
                    t.now - t.start
                FROM t
                """, [bucket, key, String(length), context.time(now)])
        ])
        return try Self.count(rows, length: length)
    }

    /// One pipeline: per key, an upsert of its amount (when above 0) that reads its recent windows back, or a
    /// plain read of them; with `durable: false` and something to add, inside `BEGIN; SET LOCAL
    /// synchronous_commit = off; … COMMIT`.
    public func recent(
        adding amounts: [String: Int], bucket: String, window: Duration, windows: Int, durable: Bool, now: Date
    ) async throws(StoreError) -> [String: RecentCounts] {
        let length = String(max(1, window.storeMilliseconds))
        let count = max(1, windows)
        let time = context.time(now)
        let keys = amounts.keys.sorted()  // the same order everywhere: concurrent flushes cannot deadlock
        var statements: [PostgresStatement] = []
        var writes = false
        for key in keys {
            let amount = max(0, amounts[key] ?? 0)
            writes = writes || amount > 0
            statements.append(
                amount > 0
                    ? PostgresStatement(
                        "rateLimits.addRecent", Self.addRecentSQL,
                        [bucket, key, length, String(count), String(amount), time])
                    : PostgresStatement(
                        "rateLimits.recent", Self.recentSQL, [bucket, key, length, String(count), time]))
        }
        guard !statements.isEmpty else { return [:] }
        let relaxed = writes && !durable
        if relaxed {
            statements =
                [.begin, PostgresStatement(unprepared: "SET LOCAL synchronous_commit = off")] + statements + [.commit]
        }
        let rows = try await context.writeCounters(statements)
        var answers: [String: RecentCounts] = [:]
        for (index, key) in keys.enumerated() {
            var counts = RecentCounts(counts: Array(repeating: 0, count: count), elapsedMilliseconds: 0)
            for row in rows[index + (relaxed ? 2 : 0)].rows {
                counts.elapsedMilliseconds = try row.int64(0)
                guard let age = try row.optionalInt64(1), age >= 0, age < Int64(count) else { continue }
                counts.counts[Int(age)] += Int(try row.int64(2))
            }
            answers[key] = counts
        }
        return answers
    }

    /// Rows of (milliseconds into the current window, the window's age in windows, its count), at least one row
    /// (age and count NULL when the key has none). $1 bucket, $2 key, $3 length, $4 windows, $5 the caller's time.
    static let recentSQL = """
        WITH t AS (SELECT n AS now, n - n % $3::bigint AS start FROM (SELECT \(PostgresContext.now(5)) AS n) c)
        SELECT t.now - t.start, (t.start - r.window_start) / $3::bigint, r.count
        FROM t LEFT JOIN rate_limits r ON r.bucket = $1 AND r.key = $2
            AND r.window_start > t.start - $4::bigint * $3::bigint AND r.window_start <= t.start
        """

    /// As `recentSQL`, after adding $5 to the current window ($6 the caller's time); the current window's count is
    /// the upsert's answer (the statement's snapshot does not see its own write).
    static let addRecentSQL = """
        WITH t AS (SELECT n AS now, n - n % $3::bigint AS start FROM (SELECT \(PostgresContext.now(6)) AS n) c),
        u AS (
            INSERT INTO rate_limits (bucket, key, window_start, count, window_end)
            SELECT $1, $2, t.start, $5::bigint, t.start + $3::bigint FROM t
            ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + EXCLUDED.count
            RETURNING count)
        SELECT t.now - t.start, 0::bigint, (SELECT count FROM u) FROM t
        UNION ALL
        SELECT t.now - t.start, (t.start - r.window_start) / $3::bigint, r.count
        FROM t JOIN rate_limits r ON r.bucket = $1 AND r.key = $2
            AND r.window_start > t.start - $4::bigint * $3::bigint AND r.window_start < t.start
        """

    /// A count from a row of (current, previous, milliseconds into the window).
    private static func count(_ rows: [PostgresRows], length: Int64) throws(StoreError) -> RateCount {
        guard let row = rows[0].first else { throw .misuse("rate-limit query returned no row") }
        let into = Double(try row.int64(2))
        return RateCount(
            current: Int(try row.int64(0)), previous: Int(try row.int64(1)), elapsed: into / Double(length),
            secondsLeft: (Double(length) - into) / 1000)
    }

    public func reset(bucket: String, key: String) async throws(StoreError) {
        _ = try await context.writeCounters([
            PostgresStatement(
                "rateLimits.reset", "DELETE FROM rate_limits WHERE bucket = $1 AND key = $2", [bucket, key])
        ])
    }

    @discardableResult
    public func prune(endedBefore cutoff: Date) async throws(StoreError) -> Int {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "rateLimits.prune", "DELETE FROM rate_limits WHERE window_end < $1::bigint",
                [String(cutoff.storeMilliseconds)])
        ])
        return rows[0].affected
    }
}
