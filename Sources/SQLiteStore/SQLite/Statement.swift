internal import CSQLite
import Store

/// Owns one prepared `sqlite3_stmt`, finalized in `deinit`.
///
/// Confined to its connection's thread of the moment (see `Connection`).
@safe final class Statement {
    private let handle: OpaquePointer
    private let database: OpaquePointer

    /// Prepares one SQL statement for repeated use.
    /// - Throws: `StoreError.misuse` for bad SQL, or what the error code maps to.
    init(database: OpaquePointer, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        var rest = ""
        let code = unsafe sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = unsafe sqlite3_prepare_v3(
                database, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            if let tail = unsafe tail { rest = unsafe String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK, let statement = unsafe statement else {
            let error = unsafe Self.error(database)
            unsafe sqlite3_finalize(statement)
            throw code == SQLITE_OK ? .misuse("empty SQL statement") : error
        }
        // SQLite compiles only the first statement; refuse to drop the rest silently.
        guard rest.allSatisfy(\.isWhitespace) else {
            unsafe sqlite3_finalize(statement)
            throw .misuse("one SQL statement at a time")
        }
        unsafe self.handle = statement
        unsafe self.database = database
    }

    deinit {
        unsafe sqlite3_finalize(handle)
    }

    /// Runs the statement with `bindings` and returns every row (`collect == false` skips copying rows).
    func run(_ bindings: [SQLValue], collect: Bool) throws(StoreError) -> [Row] {
        defer {
            unsafe sqlite3_reset(handle)
            unsafe sqlite3_clear_bindings(handle)
        }
        try bind(bindings)
        var rows: [Row] = []
        while true {
            let code = unsafe sqlite3_step(handle)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw unsafe Self.error(database) }
            if collect { rows.append(currentRow()) }
        }
    }

    private func bind(_ bindings: [SQLValue]) throws(StoreError) {
        let expected = Int(unsafe sqlite3_bind_parameter_count(handle))
        guard expected == bindings.count else {
            throw .misuse("statement expects \(expected) parameters, got \(bindings.count)")
        }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = unsafe sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = unsafe sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                code = unsafe sqlite3_bind_double(handle, index, number)
            case .text(let text):
                let length = Int32(clamping: text.utf8.count)
                code = unsafe sqlite3_bind_text(handle, index, text, length, tokenvend_sqlite_transient())
            case .blob(let bytes):
                if bytes.isEmpty {
                    code = unsafe sqlite3_bind_zeroblob(handle, index, 0)
                } else {
                    code = unsafe bytes.withUnsafeBytes { buffer in
                        unsafe sqlite3_bind_blob(
                            handle, index, buffer.baseAddress, Int32(clamping: buffer.count),
                            tokenvend_sqlite_transient())
                    }
                }
            }
            guard code == SQLITE_OK else { throw unsafe Self.error(database) }
        }
    }

    private func currentRow() -> Row {
        let count = unsafe sqlite3_column_count(handle)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            values.append(columnValue(column))
        }
        return Row(values: values)
    }

    private func columnValue(_ column: Int32) -> SQLValue {
        switch unsafe sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(unsafe sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(unsafe sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Ask for the text first, then its length (the order SQLite documents).
            let text = unsafe sqlite3_column_text(handle, column)
            let count = Int(unsafe sqlite3_column_bytes(handle, column))
            guard let text = unsafe text else { return .text("") }
            return .text(unsafe String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let blob = unsafe sqlite3_column_blob(handle, column)
            let count = Int(unsafe sqlite3_column_bytes(handle, column))
            guard let blob = unsafe blob, count > 0 else { return .blob([]) }
            return .blob(unsafe Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// The connection's last error, captured at once.
    static func error(_ database: OpaquePointer) -> StoreError {
        let code = unsafe sqlite3_extended_errcode(database)
        let message = unsafe sqlite3_errmsg(database).map { unsafe String(cString: $0) } ?? "unknown"
        return StoreError(extendedCode: code, message: message)
    }
}
