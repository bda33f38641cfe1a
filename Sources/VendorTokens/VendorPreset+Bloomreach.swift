import JWT
import StrictJSON

extension VendorPreset {
    /// `bloomreach-customer`: the Engagement customer token. HS256, header `{"typ":"JWT","kid":<keyId>}` (the
    /// private API key id), claims `{"sub": {<customer ids>}, "exp"}`; the optional `customerIds` parameter picks
    /// some of the caller's ids, absent means all of them. TTL default 3600 s.
    static func bloomreachCustomer(_ reader: MemberReader) throws(VendorTemplateError) -> TemplateSpec {
        var spec = TemplateSpec(algorithm: .hs256, claims: ["sub": "{{param.customerIds}}", "exp": "{{exp}}"])
        spec.parameters = ["customerIds": ["type": "customerIds"]]
        spec.emailCustomerID = try reader.bool("emailCustomerId") ?? false
        try spec.readPresetKeys(reader, kidMember: "keyId", secretMember: "secret")
        try spec.readLifetime(reader)
        return spec
    }

    /// `bloomreach-stream`: the Data hub Stream JWT, the same bytes `StreamTokenIssuer` signs. HS512, header
    /// `{"alg":"HS512","typ":"JWT","kid":…}`, claims `{"exp", "iat", "ids"}` with the ids sorted by key;
    /// `keys` + `activeKid` as `stream.keys`. TTL default 3600 s.
    static func bloomreachStream(_ reader: MemberReader) throws(VendorTemplateError) -> TemplateSpec {
        var spec = TemplateSpec(
            algorithm: .hs512, claims: ["exp": "{{exp}}", "iat": "{{now}}", "ids": "{{param.customerIds}}"])
        spec.parameters = ["customerIds": ["type": "customerIds"]]
        spec.emailCustomerID = try reader.bool("emailCustomerId") ?? false
        try spec.readKeys(reader)
        try spec.readLifetime(reader)
        return spec
    }
}
