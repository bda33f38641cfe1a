import StrictJSON

extension VendorPreset {
    /// `moss`: `projectId`, `projectKey` and an optional `authURL` (https, or http to a loopback host only, since
    /// it receives the project key).
    static func moss(_ reader: MemberReader) throws(VendorTemplateError) -> MossVendorSettings {
        let projectId = try reader.requiredString("projectId")
        guard let projectKey = try reader.string("projectKey") else {
            throw reader.missing("projectKey", "give projectKey or projectKeyFile")
        }
        let authURL = try reader.string("authURL")
        if let authURL, !isAuthURL(authURL) {
            throw reader.fail("authURL", "expected an https URL (http only to localhost)")
        }
        return MossVendorSettings(projectId: projectId, projectKey: projectKey, authURL: authURL)
    }

    private static func isAuthURL(_ url: String) -> Bool {
        guard !url.contains(where: { $0.isWhitespace }) else { return false }
        if url.hasPrefix("https://") { return url.utf8.count > "https://".utf8.count }
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            let prefix = "http://\(host)"
            guard url.hasPrefix(prefix) else { continue }
            let rest = url.dropFirst(prefix.count)
            if rest.isEmpty || rest.hasPrefix(":") || rest.hasPrefix("/") { return true }
        }
        return false
    }
}
