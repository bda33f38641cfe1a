import Configuration
import HTTPServer
import OutboundHTTP
import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One configuration key: its path, its type and range, and how a value of one layer is checked and turned into
/// the `ConfigValue` the components' `init(reader:)` read.
///
/// The table of every key is ``all``; the file, the environment and the flags all go through it, so they share
/// one set of checks and one wording of errors. The defaults are not here: each lives in its component.
struct ConfigurationKey {
    /// The value type of a key, which decides how an environment string is parsed and what is accepted.
    enum Kind {
        case integer(ClosedRange<Int>)
        case boolean
        case string
        case optionalString
        case secret
        case secretFile
        case url
        case cidrList
        /// A list of names (`identity.trustedForLinking`): a JSON list of non-empty strings without duplicates;
        /// may be empty. `null` (or an empty environment variable) keeps the default.
        case nameList
        case choice([String])
        /// A whole section whose member names are the operator's (`identityProviders`, `vendors`): a JSON object
        /// in the environment, such as `example`, parsed by the module that owns it (``ConfigurationSection``).
        case section(example: String, parse: ConfigurationSection.Parse)
        /// `server.publicURL`: an absolute https URL (http only to loopback) without query or fragment; optional.
        case publicURL
    }

    /// Key path as written in the file, e.g. `refreshToken.reuseGraceSeconds`.
    let path: String
    let kind: Kind

    init(_ path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// `TOKENVEND_` + the key path in upper snake case: `server.maxBodyBytes` → `TOKENVEND_SERVER_MAX_BODY_BYTES`,
    /// `moss.authURL` → `TOKENVEND_MOSS_AUTH_URL`.
    var environmentName: String { Self.environmentName(for: path) }

    /// The key whose value this one replaces and excludes (`secret` and `secretFile`), if any.
    var exclusiveSibling: String? {
        if path.hasSuffix("File") { return String(path.dropLast(4)) }
        if case .secret = kind { return path + "File" }
        return nil
    }

    static func environmentName(for path: String) -> String {
        var name = "TOKENVEND"
        for component in path.split(separator: ".") {
            name += "_"
            var previousWasLower = false
            for character in component {
                if character.isUppercase && previousWasLower { name += "_" }
                previousWasLower = character.isLowercase || character.isNumber
                name += character.uppercased()
            }
        }
        return name
    }

    /// The checked value of one layer as reader values: `path` → value, and the sibling's path for `…File` keys. `.null` gives nothing for required kinds (the component's default stays)
    /// and an empty value for optional ones, so that it unsets what a lower layer gave. A section gives no reader
    /// value: the loader parses it (``ConfigurationSection``).
    /// - Throws: ``ConfigurationError/invalidValue`` naming the key and `source`.
    func values(_ value: JSONValue, source: String) throws(ConfigurationError) -> [(String, ConfigValue)] {
        let check = ConfigurationValueCheck(key: path, source: source)
        func one(_ content: ConfigContent, secret: Bool = false) -> [(String, ConfigValue)] {
            [(path, ConfigValue(content, isSecret: secret))]
        }
        let isNull = value == .null
        switch kind {
        case .integer(let range): return isNull ? [] : one(.int(try check.integer(value, in: range)))
        case .boolean: return isNull ? [] : one(.bool(try check.boolean(value)))
        case .string: return isNull ? [] : one(.string(try check.string(value)))
        case .url: return isNull ? [] : one(.string(try check.url(value).absoluteString))
        case .choice(let names): return isNull ? [] : one(.string(try check.choice(value, of: names)))
        case .optionalString: return one(.string(isNull ? "" : try check.string(value)))
        case .publicURL: return one(.string(isNull ? "" : try check.publicURL(value)))
        case .secret: return one(.string(isNull ? "" : try check.secret(value)), secret: true)
        case .secretFile:
            let secret = isNull ? "" : try check.secretFile(at: try check.string(value)).value
            return [(exclusiveSibling ?? path, ConfigValue(.string(secret), isSecret: true))]
        case .cidrList:
            return one(.stringArray(isNull ? [] : try check.cidrList(value).map(\.description)))
        case .nameList:
            // `null` keeps the component's default (a list that has one); `[]` is an empty list.
            return isNull ? [] : one(.stringArray(try check.nameList(value)))
        case .section: return []
        }
    }

    /// Turns an environment string into a value of this key's type. A string that does not parse is passed on
    /// as a string, so the type check reports it with the usual message. An empty string unsets optional keys.
    func environmentValue(_ raw: String, source: String) throws(ConfigurationError) -> JSONValue {
        let trimmed = raw.trimmingWhitespace
        switch kind {
        case .integer:
            return Int64(trimmed).map(JSONValue.integer) ?? .string(raw)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "1", "yes", "on": return .bool(true)
            case "false", "0", "no", "off": return .bool(false)
            default: return .string(raw)
            }
        case .optionalString, .secret, .secretFile, .publicURL:
            return trimmed.isEmpty ? .null : .string(raw)
        case .string, .url, .choice:
            return .string(trimmed)
        case .cidrList, .nameList, .section:
            if trimmed.isEmpty { return .null }
            do {
                return try JSONParser.parse(Array(trimmed.utf8))
            } catch {
                let reason: String
                switch kind {
                case .nameList:
                    reason = #"expected a JSON list such as ["apple","google"], got "# + JSONValue.string(raw).summary
                case .section(let example, _):
                    // The text may hold secrets: never echo it or the parser's excerpt of it.
                    let shape = example.hasPrefix("[") ? "list" : "object"
                    reason = "expected a JSON \(shape) such as \(example), got text that is not JSON"
                default:
                    reason =
                        #"expected a JSON list such as ["10.0.0.0/8","2001:db8::/32"], got "#
                        + JSONValue.string(raw).summary
                }
                throw .invalidValue(key: path, source: source, reason: reason)
            }
        }
    }
}

/// Checks one value against a type and produces the one-line errors of ``ConfigurationError/invalidValue``
/// (`string`, `secret`, `choice` and `stringList` are StrictJSON's ``JSONValueCheck``, shared with the identity
/// providers' section).
struct ConfigurationValueCheck: JSONValueCheck {
    let key: String
    let source: String

    func fail(_ reason: String) -> ConfigurationError {
        .invalidValue(key: key, source: source, reason: reason)
    }

    func integer(_ value: JSONValue, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound)"
        guard case .integer(let number) = value else { throw fail("\(expected), got \(value.summary)") }
        guard let small = Int(exactly: number), range.contains(small) else { throw fail("\(expected), got \(number)") }
        return small
    }

    func boolean(_ value: JSONValue) throws(ConfigurationError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("expected true or false, got \(value.summary)") }
        return flag
    }

    func url(_ value: JSONValue) throws(ConfigurationError) -> URL {
        // moss.authURL receives the project key and integrity.firebase.jwksURL the keys that decide trust: plain
        // http only to loopback.
        let text = try string(value)
        guard OutboundURL.accepts(text), let url = URL(string: text) else {
            throw fail("expected an https URL (http only to localhost), got \(value.summary)")
        }
        return url
    }
}
