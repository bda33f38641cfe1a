import StrictJSON
import VendorTokens

extension ConfigurationValueCheck {
    /// Checks the `vendors` map, `{name: {preset?, …}}`: each name, each entry parsed and compiled by VendorTokens
    /// (unknown members, placeholders, parameters, keys, TTLs), with secret files read. Every error names the
    /// member (`vendors.video.apiSecret`) and the layer.
    /// - Returns: the entries sorted by name, secret files read.
    func vendors(_ value: ConfigurationValue) throws(ConfigurationError) -> [TokenServiceConfiguration.VendorSettings] {
        guard case .object(let entries) = value else {
            throw fail(
                #"expected an object of vendors such as {"chat": {"preset": "stream-chat", "apiKey": "…", "#
                    + #""apiSecretFile": "…"}}, got \#(value.typeName)"#)
        }
        var vendors: [TokenServiceConfiguration.VendorSettings] = []
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard VendorConfiguration.isVendorName(name) else {
                throw fail(
                    "vendor name \(ConfigurationValue.string(name).summary) must be 1 to 32 of a-z, 0-9, _ and -, "
                        + "starting with a letter or digit")
            }
            let entryKey = "\(key).\(name)"
            guard case .object(let object) = entry.jsonValue else {
                throw ConfigurationError.invalidValue(
                    key: entryKey, source: source, reason: "expected an object, got \(entry.typeName)")
            }
            let resolved: JSONObject
            do throws(VendorTemplateError) {
                resolved = try VendorConfiguration.resolvingFiles(object) { path in
                    do throws(ConfigurationError) {
                        return try ConfigurationValueCheck(key: entryKey, source: source).secretFile(at: path).value
                    } catch {
                        guard case .invalidValue(key: _, source: _, let reason) = error else { throw error }
                        throw VendorFileFailure(reason: reason)
                    }
                }
                try Self.checkMoss(try VendorConfiguration.parse(name: name, entry: resolved))
            } catch {
                throw Self.configurationError(error, entryKey: entryKey, source: source)
            }
            vendors.append(.init(name: name, entry: resolved))
        }
        return vendors
    }

    /// The `moss` preset's `authURL`: https, or http to loopback only (the project key is sent to it).
    private static func checkMoss(_ entry: VendorEntry) throws(VendorTemplateError) {
        guard case .moss(let settings) = entry, let url = settings.authURL else { return }
        guard MossConfiguration.parseAuthURL(url) != nil else {
            throw VendorTemplateError(
                path: "authURL", kind: .invalid,
                reason: "expected an https URL (http only to localhost), got \(ConfigurationValue.string(url).summary)")
        }
    }

    /// A VendorTokens error as the configuration's one-line error, its member path under the entry's key.
    static func configurationError(
        _ error: VendorTemplateError, entryKey: String, source: String
    ) -> ConfigurationError {
        let key = error.path.isEmpty ? entryKey : "\(entryKey).\(error.path)"
        switch error.kind {
        case .unknownMember(let suggestion):
            return .unknownKey(key: key, source: source, suggestion: suggestion.map { "\(entryKey).\($0)" })
        case .invalid:
            return .invalidValue(key: key, source: source, reason: error.reason)
        }
    }
}

/// A secret file that could not be read, as VendorTokens' `readFile` reports it: the reason only (it names the
/// path, never the contents).
struct VendorFileFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
