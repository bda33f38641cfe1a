import JWT
import StrictJSON

extension VendorPreset {
    /// `livekit`: HS256, header `{"typ":"JWT"}`; `iss` = API key, `sub` = the user id, `nbf`, `exp`, `name` from
    /// the optional `participant_name`, and the `video` grant for the required `room_name` with `roomJoin`,
    /// `canPublish`, `canSubscribe` from configuration (each default true). `roomsByRole` limits rooms per role.
    /// A `participant_identity` in the body is refused: the identity is the signed-in user. TTL default 600 s
    /// (LiveKit's own default is 6 h).
    static func liveKit(_ reader: MemberReader) throws(VendorTemplateError) -> TemplateSpec {
        let grants: [JSONObject.Member] = try ["roomJoin", "canPublish", "canSubscribe"].map {
            (flag) throws(VendorTemplateError) in
            JSONObject.Member(name: flag, value: .bool(try reader.bool(flag) ?? true))
        }
        var video = JSONObject(grants)
        video["room"] = "{{param.room_name}}"
        var spec = TemplateSpec(
            algorithm: .hs256,
            claims: [
                "iss": "{{key.kid}}", "sub": "{{user.id}}", "nbf": "{{now}}", "exp": "{{exp}}",
                "name": "{{param.participant_name}}", "video": .object(video),
            ])
        spec.header = [TemplateSpec.HeaderMember(name: "typ", value: "JWT", path: "preset")]
        var roomName: JSONObject = ["type": "string", "required": true, "pattern": "^[A-Za-z0-9_-]{1,64}$"]
        if let byRole = try reader.object("roomsByRole") {
            _ = try VendorParameter.patternsByRole(byRole, path: reader.child("roomsByRole"))
            roomName["allowedByRole"] = .object(byRole)
        }
        spec.parameters = [
            "room_name": .object(roomName),
            "participant_name": ["type": "string", "maxLength": 128],
        ]
        spec.refusedMembers = ["participant_identity": "the identity is the signed-in user"]
        spec.response = .liveKit(serverURL: try TemplateSpec.liveKitServerURL(reader))
        try spec.readPresetKeys(reader, kidMember: "apiKey", secretMember: "apiSecret")
        spec.ttlSeconds = 600
        try spec.readLifetime(reader)
        return spec
    }
}
