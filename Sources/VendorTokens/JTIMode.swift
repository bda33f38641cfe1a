/// What `{{jti}}` is replaced with (`jti` member of a template).
enum JTIMode: String, Sendable, Equatable, CaseIterable {
    /// 128 random bits, base64url (`VendorTemplate.randomID` or the injected source).
    case random
    /// `<kid>-<now>`, as Twilio's helper libraries make it (`SK…-1700000000`).
    case keyAndTime
}
