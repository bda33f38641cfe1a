import StrictJSON

extension VendorParameter {
    /// Every member a parameter declaration may have.
    static let members = ["type", "required", "pattern", "enum", "maxLength", "allowedByRole", "minimum", "maximum"]
    /// The members that only apply to some types, and those types.
    private static let typeSpecificMembers: [(member: String, types: [String])] = [
        ("pattern", ["string"]), ("enum", ["string"]), ("maxLength", ["string"]), ("allowedByRole", ["string"]),
        ("minimum", ["integer"]), ("maximum", ["integer"]),
    ]
    /// The longest `maxLength` allowed: 4096 bytes.
    static let maximumMaxLength = 4096

    /// Parses the `parameters` object; the result is sorted by name.
    static func parseAll(_ object: JSONObject, path: String) throws(VendorTemplateError) -> [VendorParameter] {
        var parameters: [VendorParameter] = []
        for member in object {
            let memberPath = "\(path).\(member.name)"
            guard isValidName(member.name) else {
                throw VendorTemplateError(
                    path: memberPath, reason: "parameter names match [A-Za-z_][A-Za-z0-9_]{0,63}")
            }
            guard case .object(let declaration) = member.value else {
                throw VendorTemplateError(
                    path: memberPath,
                    reason: "expected an object like {\"type\": \"string\"}, got \(member.value.typeName)")
            }
            parameters.append(try parse(name: member.name, declaration: declaration, path: memberPath))
        }
        return parameters.sorted { $0.name < $1.name }
    }

    /// Parses one declaration.
    static func parse(
        name: String, declaration: JSONObject, path: String
    ) throws(VendorTemplateError) -> VendorParameter {
        let reader = try MemberReader(declaration, path: path, allowed: members)
        let types = ["string", "integer", "boolean", "customerIds"]
        guard let type = try reader.string("type") else {
            throw reader.missing("type", "one of " + types.joined(separator: ", "))
        }
        guard types.contains(type) else {
            throw reader.fail("type", "expected one of \(types.joined(separator: ", ")), got \"\(type)\"")
        }
        for (member, allowedTypes) in typeSpecificMembers where reader.has(member) && !allowedTypes.contains(type) {
            throw reader.fail(member, "\(member) applies to \(allowedTypes[0]) parameters only, not \(type)")
        }
        let isRequired = try reader.bool("required") ?? false
        // A rule that a caller escapes by leaving the parameter out is no rule: the template then signs without
        // the value (a LiveKit or Twilio grant without a room is a grant for every room).
        if reader.has("allowedByRole"), !isRequired {
            let reason =
                "only on a required parameter (a caller who leaves it out escapes the rule); add \"required\": true"
            throw reader.fail("allowedByRole", reason)
        }
        let kind: Kind
        switch type {
        case "string": kind = .string(try stringRules(reader))
        case "integer":
            let minimum = try reader.integer("minimum")
            let maximum = try reader.integer("maximum")
            if let minimum, let maximum, minimum > maximum {
                throw reader.fail("maximum", "below minimum \(minimum)")
            }
            kind = .integer(minimum: minimum, maximum: maximum)
        case "boolean": kind = .boolean
        default: kind = .customerIDs
        }
        return VendorParameter(name: name, kind: kind, isRequired: isRequired)
    }

    private static func stringRules(_ reader: MemberReader) throws(VendorTemplateError) -> StringRules {
        var rules = StringRules()
        if let maxLength = try reader.integer("maxLength") {
            guard (1...Int64(maximumMaxLength)).contains(maxLength) else {
                throw reader.fail("maxLength", "must be 1…\(maximumMaxLength) (UTF-8 bytes)")
            }
            rules.maxLength = Int(maxLength)
        }
        if let pattern = try reader.string("pattern") {
            rules.pattern = try compile(pattern, path: reader.child("pattern"))
        }
        if let values = try reader.array("enum") {
            guard !values.isEmpty else { throw reader.fail("enum", "must list at least one value") }
            var strings: [String] = []
            for (index, value) in values.enumerated() {
                guard case .string(let text) = value else {
                    throw VendorTemplateError(
                        path: "\(reader.child("enum"))[\(index)]",
                        reason: "expected a string (enum values of a string parameter), got \(value.typeName)")
                }
                strings.append(text)
            }
            rules.allowedValues = strings
        }
        if let byRole = try reader.object("allowedByRole") {
            rules.allowedByRole = try patternsByRole(byRole, path: reader.child("allowedByRole"))
        }
        return rules
    }

    /// Compiles `{role: pattern}`; also used for LiveKit's `roomsByRole`.
    static func patternsByRole(
        _ object: JSONObject, path: String
    ) throws(VendorTemplateError) -> [String: WholeMatchPattern] {
        var patterns: [String: WholeMatchPattern] = [:]
        for member in object {
            let memberPath = "\(path).\(member.name)"
            guard case .string(let pattern) = member.value else {
                throw VendorTemplateError(
                    path: memberPath, reason: "expected a pattern string, got \(member.value.typeName)")
            }
            patterns[member.name] = try compile(pattern, path: memberPath)
        }
        return patterns
    }

    /// Compiles a pattern, reporting an invalid one at `path`.
    static func compile(_ pattern: String, path: String) throws(VendorTemplateError) -> WholeMatchPattern {
        do {
            return try WholeMatchPattern(pattern)
        } catch {
            throw VendorTemplateError(path: path, reason: "invalid regular expression: \(error)")
        }
    }
}
