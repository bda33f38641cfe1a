/// Levenshtein distance over UTF-8 bytes, for "did you mean …?" on unknown members here and on unknown
/// configuration keys and environment variables in TokenService: the project's one edit distance.
public enum EditDistance {
    /// The candidate closest to `text` ignoring case (the first on a tie); `nil` when none is near enough to be a
    /// likely typo: more than a third of the name's bytes (and more than 2) would have to change.
    public static func closest(to text: String, in candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = self.distance(text.lowercased(), candidate.lowercased())
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, text.utf8.count / 3) else { return nil }
        return best.candidate
    }

    /// Insertions, deletions and substitutions of bytes that turn `left` into `right`.
    public static func distance(_ left: String, _ right: String) -> Int {
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
