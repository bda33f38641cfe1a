#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JSON value as read from the configuration file or an environment variable, before it is checked against
/// the type of its key. Decoded with `JSONDecoder` (FoundationEssentials), which keeps `true` apart from `1`.
enum ConfigurationValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([ConfigurationValue])
    case object([String: ConfigurationValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ConfigurationValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ConfigurationValue].self))
        }
    }

    /// Parses `text` as JSON.
    /// - Throws: a one-line reason when `text` is not JSON.
    static func parse(_ text: some Collection<UInt8>) throws(ConfigurationValue.ParseError) -> ConfigurationValue {
        do {
            return try JSONDecoder().decode(ConfigurationValue.self, from: Data(text))
        } catch let error as DecodingError {
            throw ParseError(reason: Self.reason(error))
        } catch {
            throw ParseError(reason: "not valid JSON")
        }
    }

    /// A short rendering for error messages: strings quoted and cut at 40 characters, lists and objects named.
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value):
            let cut = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "\""
                + cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }
                .joined() + "\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The value's JSON type with an article (`a string`, `an object`), for messages that must not show it.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The one-line reason a JSON text failed to decode.
    struct ParseError: Error {
        var reason: String
    }

    private static func reason(_ error: DecodingError) -> String {
        let context: DecodingError.Context?
        switch error {
        case .dataCorrupted(let value): context = value
        case .typeMismatch(_, let value): context = value
        case .valueNotFound(_, let value): context = value
        case .keyNotFound(_, let value): context = value
        @unknown default: context = nil
        }
        let underlying = (context?.underlyingError).map { String(describing: $0) } ?? context?.debugDescription
        let detail = (underlying ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
        return detail.isEmpty ? "not valid JSON" : "not valid JSON (\(detail.prefix(160)))"
    }
}
