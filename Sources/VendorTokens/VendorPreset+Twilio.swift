import JWT
import StrictJSON

extension VendorPreset {
    /// `twilio`: HS256, header `{"typ":"JWT","cty":"twilio-fpa;v=1"}`, `jti` = `<key sid>-<now>`, `iss` = the API
    /// key sid, `sub` = the account sid, `grants.identity` = the user id and, with the optional `room` parameter,
    /// `grants.video.room`, as Twilio's helper libraries build an `AccessToken`. `roomsByRole` limits rooms per
    /// role and makes `room` required (a video grant without a room is a grant for every room). TTL default
    /// 3600 s, at most 24 h (Twilio's limit).
    static func twilio(_ reader: MemberReader) throws(VendorTemplateError) -> TemplateSpec {
        let accountSid = try reader.requiredString("accountSid")
        try checkSid(accountSid, prefix: "AC", path: reader.child("accountSid"))
        var spec = TemplateSpec(
            algorithm: .hs256,
            claims: [
                "jti": "{{jti}}", "iss": "{{key.kid}}", "sub": .string(accountSid), "exp": "{{exp}}",
                "grants": ["identity": "{{user.id}}", "video": ["room": "{{param.room}}"]],
            ])
        spec.header = [
            TemplateSpec.HeaderMember(name: "typ", value: "JWT", path: "preset"),
            TemplateSpec.HeaderMember(name: "cty", value: "twilio-fpa;v=1", path: "preset"),
        ]
        spec.jti = .keyAndTime
        var room: JSONObject = ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,128}$"]
        if let byRole = try reader.object("roomsByRole") {
            _ = try VendorParameter.patternsByRole(byRole, path: reader.child("roomsByRole"))
            room["required"] = true
            room["allowedByRole"] = .object(byRole)
        }
        spec.parameters = ["room": .object(room)]
        try spec.readPresetKeys(reader, kidMember: "apiKeySid", secretMember: "apiKeySecret") {
            (kid, path) throws(VendorTemplateError) in try checkSid(kid, prefix: "SK", path: path)
        }
        try spec.readLifetime(reader)
        return spec
    }

    /// A Twilio sid: the two-letter prefix and 32 hex digits (`AC…` account, `SK…` API key).
    private static func checkSid(_ sid: String, prefix: String, path: String) throws(VendorTemplateError) {
        let hex = sid.utf8.dropFirst(2)
        guard sid.hasPrefix(prefix), hex.count == 32,
            hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
        else {
            throw VendorTemplateError(path: path, reason: "expected a Twilio sid: \(prefix) and 32 hex digits")
        }
    }
}
