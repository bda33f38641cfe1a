import VendorTokens

extension ConfigurationKey {
    /// The key whose environment variable name is closest to `name`, for "did you mean …?" in
    /// ``ConfigurationError/unknownEnvironmentVariable(_:suggestion:)``: the Levenshtein distance to the whole name,
    /// or, when smaller, from the part after `TOKENVEND_` to the variable name of the key's last path component, so
    /// that a name without its section (`TOKENVEND_PORT`, `TOKENVEND_MAX_BODY_BYTES`) finds its key rather than a
    /// short top-level one (`TOKENVEND_VENDORS`). The first in table order on a tie.
    static func closest(toEnvironmentName name: String, in keys: [ConfigurationKey]) -> ConfigurationKey? {
        let prefix = "TOKENVEND_"
        let tail = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
        var best: (key: ConfigurationKey, distance: Int)?
        for key in keys {
            let last = key.path.split(separator: ".").last.map(String.init) ?? key.path
            let lastName = String(environmentName(for: last).dropFirst(prefix.count))
            let distance = min(EditDistance.distance(name, key.environmentName), EditDistance.distance(tail, lastName))
            if distance < best?.distance ?? .max { best = (key, distance) }
        }
        return best?.key
    }

    /// The key whose path is closest to `path` ignoring case (`server.prot` → `server.port`).
    static func closest(toPath path: String, in keys: [ConfigurationKey]) -> ConfigurationKey? {
        closest(to: path.lowercased(), in: keys) { $0.path.lowercased() }
    }

    /// The candidate whose `name` is closest to `text` (Levenshtein distance; the first in order on a tie):
    /// keys here, section names and key-list members in the loader.
    static func closest<Candidate>(
        to text: String, in candidates: some Sequence<Candidate>, by name: (Candidate) -> String
    ) -> Candidate? {
        var best: (candidate: Candidate, distance: Int)?
        for candidate in candidates {
            let distance = EditDistance.distance(text, name(candidate))
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.candidate
    }
}
