import Store

/// A value bound to a statement parameter or read from a result column.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// `.text(value)`, or `.null` when `value` is nil.
    public init(_ value: String?) {
        self = value.map { .text($0) } ?? .null
    }

    /// `.integer(value)`, or `.null` when `value` is nil.
    public init(_ value: Int64?) {
        self = value.map { .integer($0) } ?? .null
    }
}
