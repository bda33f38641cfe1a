import JWT
import StrictJSON

extension VendorTemplate {
    /// Compiles an expanded template: parameters, claims, header and keys.
    ///
    /// - Throws: `VendorTemplateError` naming the path: a missing or altered `exp`, unknown placeholders,
    ///   interpolation, parameters declared but unused, header members other than literal ones and
    ///   `"kid": "{{key.kid}}"`, a `typ` (header or claim) of `at+jwt` in any case or filled by a placeholder,
    ///   unusable keys, an `activeKid` naming no key.
    init(name: String, spec: TemplateSpec, randomID: @escaping @Sendable () -> String) throws(VendorTemplateError) {
        let parameters = try VendorParameter.parseAll(spec.parameters, path: "parameters")
        switch spec.claims["exp"] {
        case nil, .null?:
            throw VendorTemplateError(path: "claims.exp", reason: "missing; every token needs \"exp\": \"{{exp}}\"")
        case .string("{{exp}}")?:
            break
        default:
            throw VendorTemplateError(
                path: "claims.exp", reason: "must be exactly \"{{exp}}\" (the lifetime comes from ttlSeconds)")
        }
        try Self.checkTokenType(spec.claims["typ"], path: "claims.typ")
        let claims = try ClaimsTemplate(spec.claims, path: "claims", parameterNames: parameters.map(\.name))
        for (index, parameter) in parameters.enumerated() where !claims.placeholders.contains(.parameter(index)) {
            throw VendorTemplateError(
                path: "parameters.\(parameter.name)",
                reason: "declared but used nowhere in claims; use \"{{param.\(parameter.name)}}\" or remove it")
        }
        let header = try Self.header(spec.header)
        let ring = try KeyRing.load(spec)

        self.name = name
        self.algorithm = spec.algorithm
        self.activeKid = ring?.activeKid
        self.ttlSeconds = spec.ttlSeconds
        self.maxTtlSeconds = spec.maxTtlSeconds
        self.response = spec.response
        self.needsCustomerIDs =
            claims.placeholders.contains(.userCustomerIDs)
            || parameters.contains { if case .customerIDs = $0.kind { true } else { false } }
        self.emailAsRegisteredCustomerID = spec.emailCustomerID
        self.parameterNames = parameters.map(\.name)
        self.keys = ring?.keys
        self.signer = ring.map { $0.keys.signer(header: header) }
        self.claims = claims
        self.parameters = parameters
        self.refusedMembers = spec.refusedMembers
        self.jtiMode = spec.jti
        self.usesTokenID = claims.placeholders.contains(.tokenID)
        self.makeRandomID = randomID
        self.keyIdentities = Self.identities(spec, ring: ring?.keys)
    }

    /// The identity of each configured key's material, by its member path.
    private static func identities(_ spec: TemplateSpec, ring: JWTKeySet?) -> [String: KeyMaterialIdentity] {
        var identities: [String: KeyMaterialIdentity] = [:]
        for key in spec.keys {
            let identity =
                spec.algorithm.isSymmetric
                ? KeyMaterialIdentity(secret: Array(key.material.utf8))
                : ring?.key(for: key.kid).flatMap { KeyMaterialIdentity(publicKeyOf: $0) }
            identities[key.materialPath] = identity
        }
        return identities
    }

    /// The JWS header: `alg` first, then the members in the given order; `"kid": "{{key.kid}}"` is the signing
    /// key's `kid`, every other member literal JSON.
    private static func header(_ members: [TemplateSpec.HeaderMember]) throws(VendorTemplateError) -> JWTHeader {
        var header: [JWTHeader.Member] = [.algorithm]
        for member in members {
            switch member.name {
            case "alg":
                throw VendorTemplateError(path: member.path, reason: "alg comes from the template's alg member")
            case "kid":
                guard member.value == .string("{{key.kid}}") else {
                    throw VendorTemplateError(
                        path: member.path, reason: "kid must be \"{{key.kid}}\": the header names the signing key")
                }
                header.append(.keyID)
            case "crit":
                throw VendorTemplateError(
                    path: member.path, reason: "crit is refused: verifiers reject extensions they do not know")
            default:
                if member.name == "typ" { try checkTokenType(member.value, path: member.path) }
                if containsPlaceholder(member.value) {
                    throw VendorTemplateError(
                        path: member.path,
                        reason: "the only placeholder allowed in the header is {{key.kid}}, as kid")
                }
                header.append(.member(member.name, member.value))
            }
        }
        return JWTHeader(header)
    }

    /// The `typ` values of an OAuth access token (RFC 9068 §2.1), compared lowercased: tokenvend's own access
    /// tokens carry `at+jwt`, so a vendor token claiming it could pass for one wherever a key is shared.
    static let accessTokenTypes: Set<String> = ["at+jwt", "application/at+jwt"]

    /// Refuses a `typ` (header or claim) that says access token, in any case, or that a placeholder fills (the
    /// caller could then choose it).
    private static func checkTokenType(_ value: JSONValue?, path: String) throws(VendorTemplateError) {
        guard let value else { return }
        if case .string(let type) = value, accessTokenTypes.contains(type.lowercased()) {
            throw VendorTemplateError(
                path: path,
                reason: "\"\(type)\" is the type of an OAuth access token (RFC 9068); a vendor token must not pass "
                    + "for one: use \"JWT\" or leave typ out")
        }
        if containsPlaceholder(value) {
            throw VendorTemplateError(
                path: path, reason: "typ must be literal: a placeholder would let the caller choose the token type")
        }
    }

    private static func containsPlaceholder(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.contains("{{")
        case .array(let elements): elements.contains(where: containsPlaceholder)
        case .object(let object): object.contains { containsPlaceholder($0.value) }
        case .null, .bool, .integer, .double: false
        }
    }
}
