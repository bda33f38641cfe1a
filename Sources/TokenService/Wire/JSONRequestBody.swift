import HTTPServer
import StrictJSON

/// A request's JSON object body, parsed strictly: `application/json` only (415), a single object with no
/// duplicate members (400), and only the members an endpoint names (400 for any other).
///
/// It uses StrictJSON's parser (depth and size limits, duplicate detection), which is also
/// several times cheaper than Foundation's decoders for these small bodies.
struct JSONRequestBody {
    private let object: JSONObject

    /// Parses `request`'s body, allowing only the `allowed` member names.
    /// - Parameter optional: when true, an empty body reads as `{}` (for endpoints whose body is optional).
    init(_ request: HTTPRequest, allowed: Set<String>, optional: Bool = false) throws(ServiceError) {
        if request.body.isEmpty, optional {
            object = JSONObject()
            return
        }
        guard Self.isJSON(request.headers["Content-Type"]) else { throw .unsupportedMediaType }
        let parsed: JSONObject
        do {
            parsed = try JSONParser.parseObject(request.body)
        } catch {
            // Every StrictJSONError (invalid, not an object, duplicate member, too deep) is the same 400.
            throw Self.invalidBody(error)
        }
        for member in parsed.members where !allowed.contains(member.name) {
            throw .invalidRequest("Unexpected member \"\(Self.printable(member.name))\".")
        }
        object = parsed
    }

    /// An optional body whose members the caller checks itself (`POST /vend/{vendor}`: the template's
    /// parameters): empty reads as `{}`; otherwise `application/json` (415) and one strict JSON object (400).
    static func object(_ request: HTTPRequest) throws(ServiceError) -> JSONObject {
        if request.body.isEmpty { return JSONObject() }
        guard isJSON(request.headers["Content-Type"]) else { throw .unsupportedMediaType }
        do {
            return try JSONParser.parseObject(request.body)
        } catch {
            throw invalidBody(error)
        }
    }

    /// The 400 for a body that is not one strict JSON object; one message for every parse failure.
    static func invalidBody(_ error: StrictJSONError) -> ServiceError {
        switch error {
        case .invalid, .notAnObject, .duplicateMember, .nestingTooDeep:
            .invalidRequest("The body must be one JSON object.")
        }
    }

    /// A required member of any JSON type, for a module that reads it itself (a passkey ceremony's `credential`).
    func value(_ name: String) throws(ServiceError) -> JSONValue {
        guard let value = object[name], !value.isNull else { throw .invalidRequest("Missing member \"\(name)\".") }
        return value
    }

    /// A required string member.
    func string(_ name: String) throws(ServiceError) -> String {
        guard let value = object[name] else { throw .invalidRequest("Missing member \"\(name)\".") }
        guard case .string(let string) = value else { throw .invalidRequest("\"\(name)\" must be a string.") }
        return string
    }

    /// An optional string member (absent or null gives nil).
    func optionalString(_ name: String) throws(ServiceError) -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        guard case .string(let string) = value else { throw .invalidRequest("\"\(name)\" must be a string.") }
        return string
    }

    /// An optional object member read with the same rules (only the `allowed` members); absent or `null` gives
    /// nil, any other non-object is 400.
    func optionalObject(_ name: String, allowed: Set<String>) throws(ServiceError) -> JSONRequestBody? {
        guard let value = object[name], !value.isNull else { return nil }
        guard case .object(let members) = value else { throw .invalidRequest("\"\(name)\" must be an object.") }
        for member in members.members where !allowed.contains(member.name) {
            throw .invalidRequest("Unexpected member \"\(name).\(Self.printable(member.name))\".")
        }
        return JSONRequestBody(object: members)
    }

    private init(object: JSONObject) { self.object = object }

    /// An optional object of string values: absent gives nil; `null`, like any other non-object, is 400 (the
    /// member's documented type is an object, and a client that means "all of them" omits it).
    func optionalStringMap(_ name: String) throws(ServiceError) -> [String: String]? {
        guard let value = object[name] else { return nil }
        guard case .object(let members) = value else {
            throw .invalidRequest("\"\(name)\" must be an object of strings.")
        }
        var map: [String: String] = [:]
        for member in members.members {
            guard case .string(let string) = member.value else {
                throw .invalidRequest("\"\(name)\" must be an object of strings.")
            }
            map[member.name] = string
        }
        return map
    }

    /// `application/json`, with or without parameters such as `charset=utf-8`, in any letter case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingSpaces().lowercased() == "application/json"
    }

    /// A member name safe to echo in a message: at most 64 printable ASCII characters.
    static func printable(_ name: String) -> String {
        String(
            name.unicodeScalars.prefix(64).map {
                $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?"
            })
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var slice = self
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return slice
    }
}
