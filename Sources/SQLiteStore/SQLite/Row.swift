public import Store

/// One result row, copied out of SQLite (no pointer outlives the statement step).
public struct Row: Sendable, Equatable {
    /// The column values, in select-list order.
    public let values: [SQLValue]

    /// Creates a row from its values.
    public init(values: [SQLValue]) {
        self.values = values
    }

    /// The value at `index`.
    /// - Throws: `StoreError.misuse` when the index is out of range.
    public func value(_ index: Int) throws(StoreError) -> SQLValue {
        guard values.indices.contains(index) else { throw .misuse("column index \(index) out of range") }
        return values[index]
    }

    /// The text at `index`.
    /// - Throws: `StoreError.misuse` when the column is not text.
    public func string(_ index: Int) throws(StoreError) -> String {
        guard case .text(let text) = try value(index) else { throw .misuse("column \(index) is not text") }
        return text
    }

    /// The text at `index`, or nil for NULL.
    /// - Throws: `StoreError.misuse` when the column is neither text nor NULL.
    public func optionalString(_ index: Int) throws(StoreError) -> String? {
        switch try value(index) {
        case .null: return nil
        case .text(let text): return text
        default: throw .misuse("column \(index) is not text")
        }
    }

    /// The integer at `index`.
    /// - Throws: `StoreError.misuse` when the column is not an integer.
    public func int64(_ index: Int) throws(StoreError) -> Int64 {
        guard case .integer(let number) = try value(index) else { throw .misuse("column \(index) is not integer") }
        return number
    }

    /// The integer at `index`, or nil for NULL.
    /// - Throws: `StoreError.misuse` when the column is neither an integer nor NULL.
    public func optionalInt64(_ index: Int) throws(StoreError) -> Int64? {
        switch try value(index) {
        case .null: return nil
        case .integer(let number): return number
        default: throw .misuse("column \(index) is not integer")
        }
    }
}
