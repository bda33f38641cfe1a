import StrictJSON

/// Reads the members of one configuration object, with the error paths the configuration layer reports.
///
/// Every member must be one of `allowed` (an unknown one is refused with the closest allowed name); `null` counts
/// as absent. Messages name the expected type and, for a misplaced value, only its JSON type (a value may be a
/// secret).
struct MemberReader {
    let object: JSONObject
    /// The object's own path inside the entry; empty for the entry itself.
    let path: String

    /// Wraps `object` after checking that it has no member outside `allowed`.
    ///
    /// - Throws: `.unknownMember` naming the first unknown member in order, with the closest allowed name.
    init(_ object: JSONObject, path: String, allowed: [String]) throws(VendorTemplateError) {
        self.object = object
        self.path = path
        for member in object where !allowed.contains(member.name) {
            let name = member.name
            if name.hasSuffix("File"), allowed.contains(String(name.dropLast(4))) {
                throw VendorTemplateError(
                    path: child(name),
                    reason: "file not read: VendorConfiguration.resolvingFiles replaces \(name) before parsing")
            }
            let suggestion = EditDistance.closest(to: name, in: allowed).map(child)
            throw VendorTemplateError(
                path: child(name), kind: .unknownMember(suggestion: suggestion), reason: "unknown member \(name)")
        }
    }

    /// The path of member `name`: `path.name`, or `name` at the top.
    func child(_ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }

    /// Whether `name` is present and not `null`.
    func has(_ name: String) -> Bool {
        value(name) != nil
    }

    /// The value of `name`, `nil` when absent or `null`.
    func value(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    /// A non-empty string, or `nil` when absent.
    func string(_ name: String) throws(VendorTemplateError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw typeError(name, "a string", got: value) }
        guard !text.isEmpty else { throw VendorTemplateError(path: child(name), reason: "must not be empty") }
        return text
    }

    /// A non-empty string that must be present.
    func requiredString(_ name: String) throws(VendorTemplateError) -> String {
        guard let text = try string(name) else { throw missing(name) }
        return text
    }

    /// An integer (a JSON number without fraction or exponent), or `nil` when absent.
    func integer(_ name: String) throws(VendorTemplateError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard case .integer(let number) = value else { throw typeError(name, "an integer", got: value) }
        return number
    }

    /// A Boolean, or `nil` when absent.
    func bool(_ name: String) throws(VendorTemplateError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let flag) = value else { throw typeError(name, "true or false", got: value) }
        return flag
    }

    /// An object, or `nil` when absent.
    func object(_ name: String) throws(VendorTemplateError) -> JSONObject? {
        guard let value = value(name) else { return nil }
        guard case .object(let object) = value else { throw typeError(name, "an object", got: value) }
        return object
    }

    /// An array, or `nil` when absent.
    func array(_ name: String) throws(VendorTemplateError) -> [JSONValue]? {
        guard let value = value(name) else { return nil }
        guard case .array(let elements) = value else { throw typeError(name, "an array", got: value) }
        return elements
    }

    /// "missing" for member `name`.
    func missing(_ name: String, _ hint: String = "") -> VendorTemplateError {
        VendorTemplateError(path: child(name), reason: hint.isEmpty ? "missing" : "missing; \(hint)")
    }

    /// An error at member `name`.
    func fail(_ name: String, _ reason: String) -> VendorTemplateError {
        VendorTemplateError(path: child(name), reason: reason)
    }

    private func typeError(_ name: String, _ expected: String, got value: JSONValue) -> VendorTemplateError {
        VendorTemplateError(path: child(name), reason: "expected \(expected), got \(value.typeName)")
    }
}

extension JSONValue {
    /// The JSON type, for messages that must not show the value: "a string", "an integer", ….
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
