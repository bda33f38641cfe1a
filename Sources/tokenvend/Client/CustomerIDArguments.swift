/// Parses the `--customer-id key=value` arguments of `tokenvend token stream`.
enum CustomerIDArguments {
    /// The map of ids; `nil` when `arguments` is empty (the server then uses all of the user's ids).
    /// Each argument splits at its first `=`, so a value may contain `=`.
    /// - Throws: ``ClientCommandError/usage(_:)`` for an argument without `=`, an empty key or value, or a
    ///   key given twice.
    static func parse(_ arguments: [String]) throws -> [String: String]? {
        guard !arguments.isEmpty else { return nil }
        var ids: [String: String] = [:]
        for argument in arguments {
            guard let separator = argument.firstIndex(of: "=") else {
                throw ClientCommandError.usage("--customer-id: expected key=value, got \(argument)")
            }
            let key = String(argument[..<separator])
            let value = String(argument[argument.index(after: separator)...])
            guard !key.isEmpty, !value.isEmpty else {
                throw ClientCommandError.usage("--customer-id: key and value must not be empty: \(argument)")
            }
            guard ids[key] == nil else {
                throw ClientCommandError.usage("--customer-id: \(key) is given twice")
            }
            ids[key] = value
        }
        return ids
    }
}
