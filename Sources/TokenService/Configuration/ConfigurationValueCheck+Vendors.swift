import OutboundHTTP
import StrictJSON
import VendorTokens

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationSection {
    /// `vendors`, `{name: {preset?, …}}`: each entry's files read and the entry parsed and compiled once by
    /// VendorTokens (``ConfigurationValueCheck/compileVendor(name:entry:)``).
    static func vendors(_ value: JSONValue, check: ConfigurationValueCheck) throws(ConfigurationError) -> Self {
        guard value != .null else { return ConfigurationSection { $0.vendors = [] } }
        guard case .object(let entries) = value else {
            throw check.fail(
                #"expected an object of vendors such as {"chat": {"preset": "stream-chat", "apiKey": "…", "#
                    + #""apiSecretFile": "…"}}, got \#(value.typeDescription)"#)
        }
        var vendors: [TokenServiceConfiguration.VendorSettings] = []
        for member in entries.sorted(by: { $0.name < $1.name }) {
            guard VendorConfiguration.isVendorName(member.name) else {
                throw check.fail(
                    "vendor name \(JSONValue.string(member.name).summary) must be 1 to 32 of a-z, 0-9, _ and -, "
                        + "starting with a letter or digit")
            }
            let entryCheck = ConfigurationValueCheck(key: "\(check.key).\(member.name)", source: check.source)
            guard case .object(let object) = member.value else {
                throw entryCheck.fail("expected an object, got \(member.value.typeDescription)")
            }
            let resolved: JSONObject
            do throws(VendorTemplateError) {
                resolved = try VendorConfiguration.resolvingFiles(object, readFile: entryCheck.readSecretFile)
            } catch {
                throw entryCheck.configurationError(error)
            }
            vendors.append(try entryCheck.compileVendor(name: member.name, entry: resolved))
        }
        let compiled = vendors
        return ConfigurationSection { $0.vendors = compiled }
    }
}

extension ConfigurationValueCheck {
    /// The one place a vendor entry is parsed: `vendors.<name>` entries and the `stream.*` keys' preset entry.
    /// `key` is the entry's key path; errors name the member under it.
    func compileVendor(
        name: String, entry: JSONObject
    ) throws(ConfigurationError) -> TokenServiceConfiguration.VendorSettings {
        do throws(VendorTemplateError) {
            let compiled = try VendorConfiguration.parse(name: name, entry: entry)
            try Self.checkMoss(compiled)
            return TokenServiceConfiguration.VendorSettings(
                name: name, entry: compiled, access: try VendorAccess(entry: entry),
                opensEveryRoom: VendorConfiguration.opensEveryRoom(entry), resolved: entry)
        } catch {
            throw configurationError(error)
        }
    }

    /// The `moss` preset's `authURL`: https, or http to loopback only (the project key is sent to it).
    private static func checkMoss(_ entry: VendorEntry) throws(VendorTemplateError) {
        guard case .moss(let settings) = entry, let url = settings.authURL else { return }
        guard OutboundURL.accepts(url), URL(string: url) != nil else {
            throw VendorTemplateError(
                path: "authURL", kind: .invalid,
                reason: "expected an https URL (http only to localhost), got \(JSONValue.string(url).summary)")
        }
    }

    /// A VendorTokens error as the configuration's one-line error, its member path under this entry's key.
    func configurationError(_ error: VendorTemplateError) -> ConfigurationError {
        let member = error.path.isEmpty ? key : "\(key).\(error.path)"
        switch error.kind {
        case .unknownMember(let suggestion):
            return .unknownKey(key: member, source: source, suggestion: suggestion.map { "\(key).\($0)" })
        case .invalid:
            return .invalidValue(key: member, source: source, reason: error.reason)
        }
    }
}
