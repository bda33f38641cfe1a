import JWT
import StrictJSON

extension VendorTemplate {
    /// Compiles an expanded template: parameters, claims, header and keys.
    ///
    /// - Throws: `VendorTemplateError` naming the path: a missing or altered `exp`, unknown placeholders,
    ///   interpolation, parameters declared but unused, header members other than literal ones and
    ///   `"kid": "{{key.kid}}"`, unusable keys, an `activeKid` naming no key.
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

    private static func containsPlaceholder(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.contains("{{")
        case .array(let elements): elements.contains(where: containsPlaceholder)
        case .object(let object): object.contains { containsPlaceholder($0.value) }
        case .null, .bool, .integer, .double: false
        }
    }
}
