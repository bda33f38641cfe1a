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
            let distance = min(editDistance(name, key.environmentName), editDistance(tail, lastName))
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
            let distance = editDistance(text, name(candidate))
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The Levenshtein distance between two strings (insertions, deletions and substitutions of bytes).
    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
