/// One `vendors.<name>` entry, parsed: a signed-token template, or the Moss upstream.
///
/// ```swift
/// switch try VendorConfiguration.parse(name: "chat", entry: entry) {
/// case .template(let template): routes["chat"] = template      // POST /vend/chat
/// case .moss(let settings): moss = MossTokenCache(settings)      // the upstream project-token cache
/// }
/// ```
public enum VendorEntry: Sendable {
    /// A template (written out, or expanded from a token preset) compiled and ready to sign.
    case template(VendorTemplate)
    /// The `moss` preset: tokens come from Moss's own endpoint, which TokenService calls and caches.
    case moss(MossVendorSettings)
}
