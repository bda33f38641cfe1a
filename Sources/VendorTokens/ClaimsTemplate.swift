import StrictJSON

/// The `claims` object compiled at startup: members sorted by name, literal parts serialized once, and each
/// `"{{…}}"` resolved to a `Placeholder`, so rendering a token only appends bytes and the substituted values.
///
/// An absent value (an optional parameter not given, a user without email or tenant) omits its member; an object
/// left empty by omissions is omitted too (the top-level object never is), and in an array the element is dropped.
struct ClaimsTemplate: Sendable {
    /// A compiled JSON value.
    indirect enum Node: Sendable {
        /// JSON text with no placeholder below it, serialized (members sorted).
        case literal([UInt8])
        /// A placeholder, substituted at issue time.
        case placeholder(Placeholder)
        /// An object with a placeholder somewhere below it.
        case object([Member])
        /// An array with a placeholder somewhere below it.
        case array([Node])
    }

    /// An object member: its name, pre-serialized as `"name":`, and its value.
    struct Member: Sendable {
        let prefix: [UInt8]
        let value: Node
    }

    /// The top-level object's members.
    let members: [Member]
    /// Every placeholder used, for the startup checks (`exp`, unused parameters) and to skip work at issue time.
    let placeholders: [Placeholder]

    /// Compiles the claims object.
    ///
    /// - Parameters:
    ///   - object: The configured `claims`.
    ///   - path: Its path in the entry (`claims`), for errors.
    ///   - parameterNames: The declared parameters, sorted (a placeholder refers to one by its index).
    /// - Throws: `VendorTemplateError` for an interpolation attempt or an unknown placeholder, naming its path.
    init(
        _ object: JSONObject, path: String, parameterNames: [String]
    ) throws(VendorTemplateError) {
        var compiler = Compiler(parameterNames: parameterNames)
        var members: [Member] = []
        for member in object.sorted(by: { $0.name < $1.name }) {
            let node = try compiler.compile(member.value, path: "\(path).\(member.name)")
            members.append(Member(prefix: Self.prefix(member.name), value: node))
        }
        self.members = members
        self.placeholders = compiler.placeholders
    }

    /// `"name":`.
    static func prefix(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONString.append(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        return bytes
    }

    /// Walks the configured JSON once, collecting placeholders.
    private struct Compiler {
        let parameterNames: [String]
        var placeholders: [Placeholder] = []

        mutating func compile(_ value: JSONValue, path: String) throws(VendorTemplateError) -> Node {
            switch value {
            case .string(let text):
                switch Placeholder.form(of: text) {
                case .literal:
                    return .literal(value.serialized())
                case .interpolation:
                    throw VendorTemplateError(
                        path: path,
                        reason: "placeholders are whole string values; there is no interpolation")
                case .placeholder(let name):
                    let placeholder = try Placeholder.resolve(name, path: path) { parameterNames.firstIndex(of: $0) }
                    placeholders.append(placeholder)
                    return .placeholder(placeholder)
                }
            case .object(let object):
                var members: [Member] = []
                for member in object.sorted(by: { $0.name < $1.name }) {
                    let node = try compile(member.value, path: "\(path).\(member.name)")
                    members.append(Member(prefix: ClaimsTemplate.prefix(member.name), value: node))
                }
                guard members.allSatisfy(\.value.isLiteral) else { return .object(members) }
                return .literal(Self.joinedObject(members))
            case .array(let elements):
                var nodes: [Node] = []
                for (index, element) in elements.enumerated() {
                    nodes.append(try compile(element, path: "\(path)[\(index)]"))
                }
                guard nodes.allSatisfy(\.isLiteral) else { return .array(nodes) }
                var bytes: [UInt8] = [UInt8(ascii: "[")]
                for (index, node) in nodes.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    if case .literal(let text) = node { bytes += text }
                }
                bytes.append(UInt8(ascii: "]"))
                return .literal(bytes)
            case .null, .bool, .integer, .double:
                return .literal(value.serialized())
            }
        }

        private static func joinedObject(_ members: [Member]) -> [UInt8] {
            var bytes: [UInt8] = [UInt8(ascii: "{")]
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += member.prefix
                if case .literal(let text) = member.value { bytes += text }
            }
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }
    }
}

extension ClaimsTemplate.Node {
    /// Whether the value is fixed text.
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }
}
