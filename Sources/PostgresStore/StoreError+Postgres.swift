internal import CLibPQ
import Store

extension StoreError {
    /// The error a failed PostgreSQL statement reports, from its SQLSTATE (and, for unique violations, the
    /// constraint's name). Never the server's message: it may quote bound values.
    /// - Parameters:
    ///   - sqlState: the five-character SQLSTATE, or nil when the server sent none (a broken connection).
    ///   - constraint: the violated constraint's name, if any.
    ///   - statement: a label for programmer errors (the prepared statement's name).
    static func postgres(sqlState: String?, constraint: String?, statement: String) -> StoreError {
        guard let sqlState else { return .unavailable(.unreachable) }
        switch sqlState {
        case "23505":
            if constraint == "users_email_key" { return .emailTaken }
            if let constraint, constraint.hasSuffix("_pkey") { return .constraint(.primaryKey) }
            return .constraint(.unique)
        case "23503": return .constraint(.foreignKey)
        case "23502": return .constraint(.notNull)
        case "23514": return .constraint(.check)
        case "55P03": return .unavailable(.lockTimeout)
        case "57014": return .unavailable(.timedOut)
        case "57P01", "57P02", "57P03": return .unavailable(.unreachable)
        case "53100": return .unavailable(.diskFull)
        case "53200": return .unavailable(.outOfMemory)
        case "25006": return .unavailable(.readOnly)
        case "40001", "40P01": return .unavailable(.busy)
        case "XX001", "XX002": return .corrupt
        default:
            if sqlState.hasPrefix("08") || sqlState.hasPrefix("53") { return .unavailable(.unreachable) }
            if sqlState.hasPrefix("23") { return .constraint(.other) }
            return .misuse("PostgreSQL error \(sqlState) in \(statement)")
        }
    }
}
