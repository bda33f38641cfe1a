import JWT
import StrictJSON

extension VendorPreset {
    /// `stream-chat`: HS256, header `{"typ":"JWT"}` (PyJWT's, no `kid`), claims `{"user_id", "iat", "exp"}` as
    /// Stream's server SDKs' `create_token(user_id, exp, iat)` makes them; no parameters. TTL default 3600 s.
    static func streamChat(_ reader: MemberReader) throws(VendorTemplateError) -> TemplateSpec {
        var spec = TemplateSpec(
            algorithm: .hs256, claims: ["user_id": "{{user.id}}", "iat": "{{now}}", "exp": "{{exp}}"])
        spec.header = [TemplateSpec.HeaderMember(name: "typ", value: "JWT", path: "preset")]
        try spec.readPresetKeys(reader, kidMember: "apiKey", secretMember: "apiSecret")
        try spec.readLifetime(reader)
        return spec
    }
}
