import Store

/// One SQL statement and its text-format parameters, sent by `PostgresConnection.run(_:deadline:)`.
///
/// A named statement is prepared once per connection (in the same pipeline as its first use, so preparing costs
/// no round trip) and executed by name afterwards.
struct PostgresStatement: Sendable {
    /// The prepared-statement name (unique per SQL text), or nil to send the SQL each time (`BEGIN`, `COMMIT`).
    let name: String?
    /// One statement, `$1`-style placeholders.
    let sql: String
    /// The parameters in text format; nil is SQL NULL. Never part of an error message.
    let parameters: [String?]

    /// A statement prepared once per connection under `name`.
    init(_ name: String, _ sql: String, _ parameters: [String?] = []) {
        self.name = name
        self.sql = sql
        self.parameters = parameters
    }

    /// A statement sent as is, without parameters.
    init(unprepared sql: String) {
        name = nil
        self.sql = sql
        parameters = []
    }

    static let begin = PostgresStatement(unprepared: "BEGIN")
    /// `BEGIN` at READ COMMITTED whatever the database's `default_transaction_isolation`: a transaction that relies
    /// on each statement's fresh snapshot after a lock (`PostgresIdentityStore.createUser`) says so.
    static let beginReadCommitted = PostgresStatement(unprepared: "BEGIN ISOLATION LEVEL READ COMMITTED")
    static let commit = PostgresStatement(unprepared: "COMMIT")
    static let rollback = PostgresStatement(unprepared: "ROLLBACK")
}

/// The rows one statement returned (text format) and how many rows it changed.
struct PostgresRows: Sendable {
    /// Each row's values; nil is SQL NULL.
    var rows: [PostgresRow]
    /// Rows inserted, updated or deleted (`PQcmdTuples`), 0 for other statements.
    var affected: Int

    /// The first row, if any.
    var first: PostgresRow? { rows.first }
}

/// One result row in text format.
struct PostgresRow: Sendable {
    let values: [String?]

    /// The text in `column`.
    /// - Throws: `.misuse` when it is NULL or the column does not exist.
    func string(_ column: Int) throws(StoreError) -> String {
        guard let value = try optionalString(column) else { throw .misuse("unexpected NULL in column \(column)") }
        return value
    }

    /// The text in `column`, or nil for NULL.
    func optionalString(_ column: Int) throws(StoreError) -> String? {
        guard values.indices.contains(column) else { throw .misuse("no column \(column)") }
        return values[column]
    }

    /// The integer in `column`.
    func int64(_ column: Int) throws(StoreError) -> Int64 {
        guard let value = try optionalInt64(column) else { throw .misuse("unexpected NULL in column \(column)") }
        return value
    }

    /// The integer in `column`, or nil for NULL.
    func optionalInt64(_ column: Int) throws(StoreError) -> Int64? {
        guard let text = try optionalString(column) else { return nil }
        guard let value = Int64(text) else { throw .misuse("column \(column) is not an integer") }
        return value
    }

    /// The boolean in `column` (`t`/`f`).
    func bool(_ column: Int) throws(StoreError) -> Bool {
        try string(column) == "t"
    }
}
