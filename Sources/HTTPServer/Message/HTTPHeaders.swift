/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1).
///
/// Names keep the case they were sent or added with; lookups compare ASCII case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    /// The fields in order.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates a header list from name/value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Appends a field; several fields may share a name.
    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field with this name by one field (appended at the end).
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        fields.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    /// The value of the first field with this name, or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.equalsIgnoringCase(field.name, name) { return field.value }
        return nil
    }

    /// The values of every field with this name, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    /// Whether a field with this name is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Whether more than one field has this name; stops at the second and allocates nothing.
    public func isRepeated(_ name: String) -> Bool {
        var seen = false
        for field in fields where Self.equalsIgnoringCase(field.name, name) {
            if seen { return true }
            seen = true
        }
        return false
    }

    /// ASCII case-insensitive comparison, as header names are ASCII tokens.
    static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        let a = lhs.utf8
        let b = rhs.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard x | 0x20 == y | 0x20, (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}
