/// A `"{{name}}"` string value in the claims, resolved at startup.
///
/// The list is closed: there is no expression language, and identity comes from the caller (the verified access
/// token and the session), never from the body.
enum Placeholder: Sendable, Equatable {
    /// `{{user.id}}`: string.
    case userID
    /// `{{user.email}}`: string; absent (member omitted) for a user without a verified email.
    case userEmail
    /// `{{user.role}}`: string.
    case userRole
    /// `{{user.tenantId}}`: string; absent for a user without tenant.
    case userTenantID
    /// `{{user.customerIds}}`: object of the caller's customer ids, sorted by key.
    case userCustomerIDs
    /// `{{session.id}}`: string.
    case sessionID
    /// `{{now}}`: integer Unix seconds.
    case now
    /// `{{exp}}`: integer, `now + ttlSeconds`.
    case expiration
    /// `{{jti}}`: string, as the template's `jti` says.
    case tokenID
    /// `{{key.kid}}`: string, the signing key's `kid`.
    case keyID
    /// `{{param.<name>}}`: the parameter's value, typed as declared; the payload is its index in the sorted list.
    case parameter(Int)

    /// The fixed names, as written between the braces.
    static let fixedNames: [(name: String, placeholder: Placeholder)] = [
        ("user.id", .userID), ("user.email", .userEmail), ("user.role", .userRole), ("user.tenantId", .userTenantID),
        ("user.customerIds", .userCustomerIDs), ("session.id", .sessionID), ("now", .now), ("exp", .expiration),
        ("jti", .tokenID), ("key.kid", .keyID),
    ]

    /// What a string value is: plain text, one placeholder name (`"{{x}}"` → `x`), or an interpolation attempt
    /// (text containing `{{` that is not exactly one placeholder).
    enum Form: Equatable {
        case literal
        case placeholder(String)
        case interpolation
    }

    /// Classifies a string value of the claims or the header.
    static func form(of text: String) -> Form {
        guard text.contains("{{") else { return .literal }
        guard text.hasPrefix("{{"), text.hasSuffix("}}"), text.utf8.count > 4 else { return .interpolation }
        let name = String(text.dropFirst(2).dropLast(2))
        guard !name.contains("{"), !name.contains("}") else { return .interpolation }
        return .placeholder(name)
    }

    /// Resolves a placeholder name; `parameterIndex` maps a declared parameter name to its index.
    ///
    /// - Throws: a `VendorTemplateError` at `path` for an unknown name or a parameter that is not declared.
    static func resolve(
        _ name: String, path: String, parameterIndex: (String) -> Int?
    ) throws(VendorTemplateError) -> Placeholder {
        if let fixed = fixedNames.first(where: { $0.name == name }) { return fixed.placeholder }
        if name.hasPrefix("param.") {
            let parameter = String(name.dropFirst("param.".count))
            guard let index = parameterIndex(parameter) else {
                throw VendorTemplateError(
                    path: path, reason: "{{\(name)}} names no declared parameter; declare parameters.\(parameter)")
            }
            return .parameter(index)
        }
        let known = fixedNames.map(\.name) + ["param.<name>"]
        var reason = "unknown placeholder {{\(name)}}"
        if let closest = EditDistance.closest(to: name, in: fixedNames.map(\.name)) {
            reason += " (did you mean {{\(closest)}}?)"
        }
        throw VendorTemplateError(path: path, reason: reason + "; known: " + known.joined(separator: ", "))
    }
}
