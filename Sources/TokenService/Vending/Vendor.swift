import VendorTokens

/// One vendor `POST /vend/<name>` answers for, and its `tokenvend_vended_tokens_total{vendor}` series.
struct Vendor: Sendable {
    enum Source: Sendable {
        /// A signed token from a template (a preset expands to one).
        case signed(VendorTemplate)
        /// Moss's project token, fetched from Moss and cached (the `moss` preset).
        case moss(MossTokenCache)
    }

    let source: Source
    /// `roles` and `requireVerifiedEmail`: who may vend, beyond being signed in.
    let access: VendorAccess
    let issued: ServiceCounter
}
