import JWT
import StrictJSON

extension TemplateSpec {
    /// The members of a written-out template.
    static let templateMembers = [
        "alg", "keys", "activeKid", "header", "ttlSeconds", "maxTtlSeconds", "jti", "claims", "parameters",
        "emailCustomerId", "response", "serverURL",
    ]
    /// The algorithms a template may sign with.
    static let signingAlgorithms: [JWTAlgorithm] = [.hs256, .hs384, .hs512, .es256, .edDSA]

    /// Reads a template written in the template language (an entry without `preset`).
    init(template reader: MemberReader) throws(VendorTemplateError) {
        let names = Self.signingAlgorithms.map(\.name).joined(separator: ", ")
        guard let algName = try reader.string("alg") else { throw reader.missing("alg", "one of \(names)") }
        guard let algorithm = JWTAlgorithm(name: algName), Self.signingAlgorithms.contains(algorithm) else {
            throw reader.fail("alg", "expected one of \(names), got \"\(algName)\"")
        }
        guard let claims = try reader.object("claims") else {
            throw reader.missing("claims", "the token's claims, with \"exp\": \"{{exp}}\"")
        }
        self.init(algorithm: algorithm, claims: claims)
        try readKeys(reader)
        if let header = try reader.object("header") { self.header = Self.header(header, path: reader.child("header")) }
        try readLifetime(reader)
        if let jti = try reader.string("jti") {
            guard let mode = JTIMode(rawValue: jti) else {
                throw reader.fail("jti", "expected random or keyAndTime, got \"\(jti)\"")
            }
            self.jti = mode
        }
        parameters = try reader.object("parameters") ?? [:]
        emailCustomerID = try reader.bool("emailCustomerId") ?? false
        let response = try reader.string("response") ?? "token"
        switch response {
        case "token":
            if reader.has("serverURL") { throw reader.fail("serverURL", "only for \"response\": \"livekit\"") }
        case "livekit":
            self.response = .liveKit(serverURL: try Self.liveKitServerURL(reader))
        default:
            throw reader.fail("response", "expected token or livekit, got \"\(response)\"")
        }
    }

    /// `keys` and `activeKid`, as every template and most presets have them.
    mutating func readKeys(_ reader: MemberReader) throws(VendorTemplateError) {
        if let keys = try reader.array("keys") {
            self.keys = try Self.keys(keys, path: reader.child("keys"), algorithm: algorithm)
        }
        activeKid = try reader.string("activeKid")
        activeKidPath = reader.child("activeKid")
    }

    /// `ttlSeconds` and `maxTtlSeconds` (presets fix the maximum and read only `ttlSeconds`).
    mutating func readLifetime(_ reader: MemberReader) throws(VendorTemplateError) {
        if let maximum = try reader.integer("maxTtlSeconds") {
            guard (1...Int64(Self.longestMaxTtl)).contains(maximum) else {
                throw reader.fail("maxTtlSeconds", "must be 1…\(Self.longestMaxTtl) seconds")
            }
            maxTtlSeconds = Int(maximum)
        }
        if let ttl = try reader.integer("ttlSeconds") {
            guard ttl >= 1 else { throw reader.fail("ttlSeconds", "must be at least 1 second") }
            guard ttl <= Int64(maxTtlSeconds) else {
                throw reader.fail("ttlSeconds", "\(ttl) s is over maxTtlSeconds \(maxTtlSeconds) s")
            }
            ttlSeconds = Int(ttl)
        }
    }

    /// The longest `maxTtlSeconds`: 366 days.
    static let longestMaxTtl = 366 * 86400

    /// Reads `[{"kid", "secret"}]` (HS*) or `[{"kid", "privateKey"}]` (ES256, EdDSA).
    static func keys(
        _ elements: [JSONValue], path: String, algorithm: JWTAlgorithm
    ) throws(VendorTemplateError) -> [KeySpec] {
        let materialName = algorithm.isSymmetric ? "secret" : "privateKey"
        let wrongName = algorithm.isSymmetric ? "privateKey" : "secret"
        var keys: [KeySpec] = []
        for (index, element) in elements.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard case .object(let object) = element else {
                throw VendorTemplateError(
                    path: itemPath, reason: "expected {\"kid\": …, \"\(materialName)\": …}, got \(element.typeName)")
            }
            let item = try MemberReader(object, path: itemPath, allowed: ["kid", "secret", "privateKey"])
            if item.has(wrongName) {
                throw item.fail(wrongName, "an \(algorithm.name) key takes \(materialName), not \(wrongName)")
            }
            let kid = try item.requiredString("kid")
            if let earlier = keys.first(where: { $0.kid == kid }) {
                throw item.fail("kid", "duplicate kid \"\(kid)\" (also at \(earlier.kidPath))")
            }
            guard let material = try item.string(materialName) else {
                throw item.missing(materialName, "give \(materialName) or \(materialName)File")
            }
            keys.append(
                KeySpec(
                    kid: kid, kidPath: item.child("kid"), material: material,
                    materialPath: item.child(materialName)))
        }
        return keys
    }

    /// A configured `header` object, in sorted member order (configuration objects are unordered).
    static func header(_ object: JSONObject, path: String) -> [HeaderMember] {
        object.sorted { $0.name < $1.name }.map {
            HeaderMember(name: $0.name, value: $0.value, path: "\(path).\($0.name)")
        }
    }

    /// `serverURL` of a LiveKit response: `wss://`, `ws://` or `https://` and a host.
    static func liveKitServerURL(_ reader: MemberReader) throws(VendorTemplateError) -> String {
        guard let url = try reader.string("serverURL") else {
            throw reader.missing("serverURL", "LiveKit's answer names the server (wss://…)")
        }
        let schemes = ["wss://", "ws://", "https://"]
        guard let scheme = schemes.first(where: { url.hasPrefix($0) }), url.utf8.count > scheme.utf8.count,
            !url.contains(where: { $0.isWhitespace })
        else {
            throw reader.fail("serverURL", "expected a wss://, ws:// or https:// URL")
        }
        return url
    }
}
