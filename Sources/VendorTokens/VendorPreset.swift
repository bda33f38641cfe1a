import StrictJSON

/// A `"preset"`: a vendor whose token format tokenvend knows, configured with credentials only.
///
/// The preset fixes the template (`alg`, header, claims, parameters, `jti`, response and the maximum lifetime);
/// every token preset accepts `ttlSeconds` and, instead of its single secret, `keys` + `activeKid` for rotation (the
/// `kid` of each key is then the API key / key id). A token preset without its secret is configured without keys.
enum VendorPreset: String, CaseIterable {
    /// Stream Chat's user token, as its server SDKs' `create_token` makes it.
    case streamChat = "stream-chat"
    /// A LiveKit access token with a video grant, answered in LiveKit's token-endpoint shape.
    case liveKit = "livekit"
    /// A Twilio access token (`cty: twilio-fpa;v=1`) with an identity and, optionally, a video room grant.
    case twilio
    /// The Bloomreach Engagement customer token (the SDK's customer-token authorization mode).
    case bloomreachCustomer = "bloomreach-customer"
    /// The Bloomreach Data hub Stream JWT (today's `POST /stream-token`).
    case bloomreachStream = "bloomreach-stream"
    /// Moss's project token, fetched and cached by TokenService.
    case moss

    /// Template members a preset fixes, refused next to `preset`.
    static let fixedMembers = ["alg", "header", "claims", "parameters", "jti", "response", "maxTtlSeconds"]

    /// The members this preset's entry may have, `preset` included.
    var members: [String] {
        let rotation = ["ttlSeconds", "keys", "activeKid"]
        let own: [String] =
            switch self {
            case .streamChat: ["apiKey", "apiSecret"] + rotation
            case .liveKit:
                ["apiKey", "apiSecret", "serverURL", "roomJoin", "canPublish", "canSubscribe", "roomsByRole"] + rotation
            case .twilio: ["accountSid", "apiKeySid", "apiKeySecret", "roomsByRole"] + rotation
            case .bloomreachCustomer: ["keyId", "secret", "emailCustomerId"] + rotation
            case .bloomreachStream: ["emailCustomerId"] + rotation
            case .moss: ["projectId", "projectKey", "authURL"]
            }
        return ["preset"] + own
    }

    /// Expands and compiles the entry.
    func entry(
        name: String, reader: MemberReader, randomID: @escaping @Sendable () -> String
    ) throws(VendorTemplateError) -> VendorEntry {
        let spec: TemplateSpec
        switch self {
        case .streamChat: spec = try Self.streamChat(reader)
        case .liveKit: spec = try Self.liveKit(reader)
        case .twilio: spec = try Self.twilio(reader)
        case .bloomreachCustomer: spec = try Self.bloomreachCustomer(reader)
        case .bloomreachStream: spec = try Self.bloomreachStream(reader)
        case .moss: return .moss(try Self.moss(reader))
        }
        return .template(try VendorTemplate(name: name, spec: spec, randomID: randomID))
    }
}

extension TemplateSpec {
    /// A preset's key: the single `kidMember` + `secretMember` pair, or `keys` + `activeKid`, or none at all
    /// (configured without keys). `checkKid` validates each `kid` (Twilio's `SK…` sids).
    mutating func readPresetKeys(
        _ reader: MemberReader, kidMember: String, secretMember: String,
        checkKid: (String, String) throws(VendorTemplateError) -> Void = { _, _ in }
    ) throws(VendorTemplateError) {
        if reader.has("keys") {
            if reader.has(secretMember) {
                throw reader.fail(secretMember, "give either \(secretMember) or keys (with activeKid), not both")
            }
            if reader.has(kidMember) {
                throw reader.fail(kidMember, "with keys, each key's kid is the \(kidMember); drop \(kidMember)")
            }
            try readKeys(reader)
        } else if let secret = try reader.string(secretMember) {
            guard let kid = try reader.string(kidMember) else {
                throw reader.missing(kidMember, "the key id \(secretMember) belongs to")
            }
            if reader.has("activeKid") {
                throw reader.fail("activeKid", "only with keys; the one \(secretMember) is always active")
            }
            keys = [
                KeySpec(
                    kid: kid, kidPath: reader.child(kidMember), material: secret,
                    materialPath: reader.child(secretMember))
            ]
        } else {
            // Configured without keys: every request is answered 503 until the secret is set.
            if let kid = try reader.string(kidMember) { try checkKid(kid, reader.child(kidMember)) }
            activeKid = try reader.string("activeKid")
            activeKidPath = reader.child("activeKid")
        }
        for key in keys { try checkKid(key.kid, key.kidPath) }
    }
}
