internal import CSQLite
import Store

extension StoreError {
    /// Maps an extended SQLite result code (and the connection's message, which names tables, columns or SQL
    /// fragments but never bound values) to a `StoreError`.
    init(extendedCode code: Int32, message: String) {
        switch code & 0xFF {
        case SQLITE_FULL: self = .unavailable(.diskFull)
        case SQLITE_READONLY: self = .unavailable(.readOnly)
        case SQLITE_IOERR, SQLITE_PROTOCOL: self = .unavailable(.ioError)
        case SQLITE_CANTOPEN: self = .unavailable(.cannotOpen)
        case SQLITE_BUSY, SQLITE_LOCKED: self = .unavailable(.busy)
        case SQLITE_NOMEM: self = .unavailable(.outOfMemory)
        case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt
        case SQLITE_CONSTRAINT: self = .constraint(Self.constraintKind(code))
        default: self = .misuse("SQLite error \(code): \(message)")
        }
    }

    private static func constraintKind(_ code: Int32) -> ConstraintKind {
        switch code {
        case SQLITE_CONSTRAINT | (8 << 8): return .unique
        case SQLITE_CONSTRAINT | (6 << 8): return .primaryKey
        case SQLITE_CONSTRAINT | (3 << 8): return .foreignKey
        case SQLITE_CONSTRAINT | (5 << 8): return .notNull
        case SQLITE_CONSTRAINT | (1 << 8): return .check
        default: return .other
        }
    }

    /// Whether the failure suggests the connection itself is stale (opened read-only, file moved, I/O
    /// failure), so the writer should be reopened before the next attempt.
    var suggestsReopen: Bool {
        switch self {
        case .unavailable(.ioError), .unavailable(.cannotOpen), .corrupt: return true
        default: return false
        }
    }
}
