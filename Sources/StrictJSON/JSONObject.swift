/// A JSON object: members in order, names unique.
///
/// Lookup by name is a linear scan, which beats hashing for the handful of members a JWT carries. Names are
/// compared byte for byte (as UTF-8), like JSON parsers in other languages, not by Unicode canonical equivalence.
public struct JSONObject: Sendable, Equatable, RandomAccessCollection {
    /// One `"name": value` pair.
    public struct Member: Sendable, Equatable {
        /// The member name.
        public let name: String
        /// The member value.
        public var value: JSONValue
        /// The name's length and first bytes packed for cheap comparison (see `UTF8Bytes.packedKey`).
        let nameKey: UInt64

        /// Creates a member.
        public init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
            self.nameKey = UTF8Bytes.packedKey(name)
        }

        /// Compares name and value (the packed key is derived from the name).
        public static func == (lhs: Member, rhs: Member) -> Bool {
            lhs.nameKey == rhs.nameKey && UTF8Bytes.equal(lhs.name, rhs.name) && lhs.value == rhs.value
        }

        func hasName(_ other: String, key: UInt64) -> Bool {
            nameKey == key && (UTF8Bytes.isFullyPacked(key) || UTF8Bytes.equal(name, other))
        }
    }

    /// The members, in order.
    public private(set) var members: [Member]

    /// Creates an object from members in order.
    ///
    /// - Precondition: no two members share a name (a programmer error; parsed input is checked separately).
    public init(_ members: [Member] = []) {
        precondition(!Self.hasDuplicateNames(members), "duplicate JSON member name")
        self.members = members
    }

    /// Wraps members already known to have unique names (the parser checks them).
    init(uncheckedMembers members: [Member]) {
        self.members = members
    }

    /// Index of the first member.
    public var startIndex: Int { members.startIndex }
    /// Index past the last member.
    public var endIndex: Int { members.endIndex }
    /// The member at `position`.
    public subscript(position: Int) -> Member { members[position] }

    /// The value of the member called `name`; setting `nil` removes it, setting a new name appends it.
    public subscript(name: String) -> JSONValue? {
        get {
            let key = UTF8Bytes.packedKey(name)
            for member in members where member.hasName(name, key: key) { return member.value }
            return nil
        }
        set {
            let key = UTF8Bytes.packedKey(name)
            if let index = members.firstIndex(where: { $0.hasName(name, key: key) }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(name: name, value: newValue))
            }
        }
    }

    /// Appends or replaces the member called `name`, keeping the position of an existing one.
    public mutating func set(_ name: String, _ value: JSONValue) {
        self[name] = value
    }

    static func hasDuplicateNames(_ members: [Member]) -> Bool {
        if members.count <= 16 {
            for index in members.indices.dropFirst() {
                let member = members[index]
                for earlier in 0..<index where members[earlier].hasName(member.name, key: member.nameKey) {
                    return true
                }
            }
            return false
        }
        var seen = Set<[UInt8]>(minimumCapacity: members.count)
        for member in members where !seen.insert(Array(member.name.utf8)).inserted { return true }
        return false
    }

}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the members in the order written. Duplicate names are a programmer error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Member(name: $0.0, value: $0.1) })
    }
}
