/// `If-None-Match` (RFC 9110 §13.1.2) against one current entity tag.
///
/// The field is `*` or a comma-separated list of entity tags (`"opaque"` or `W/"opaque"`); several fields are
/// one list. Comparison is weak (the `W/` prefix is ignored), as RFC 9110 requires for GET and HEAD. A field
/// that is not valid syntax is ignored as a whole (the request is answered as if it were absent, with the full
/// body), never treated as a match.
enum EntityTagCondition {
    /// What the request's `If-None-Match` fields say about `current` (a strong tag, with its quotes).
    enum Outcome: Equatable {
        /// No field, or a field that does not parse: answer in full.
        case absent
        /// One of the tags (or `*`) matches: answer 304.
        case matches
        /// A valid list none of whose tags matches: answer in full.
        case differs
    }

    /// Evaluates the `If-None-Match` field values (`values`, in order) for `current`.
    static func evaluate(_ values: [String], current: String) -> Outcome {
        guard !values.isEmpty else { return .absent }
        let currentOpaque = opaque(current)
        var sawTag = false
        for value in values {
            let trimmed = value.trimmingWhitespace
            if trimmed == "*" {
                return .matches
            }
            guard let tags = parseList(trimmed) else { return .absent }
            for tag in tags {
                sawTag = true
                if tag == currentOpaque { return .matches }
            }
        }
        return sawTag ? .differs : .absent
    }

    /// The opaque part of an entity tag with quotes: `"abc"` and `W/"abc"` give `abc`.
    static func opaque(_ tag: String) -> Substring {
        var text = Substring(tag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        return text
    }

    /// The opaque parts of a list of entity tags, or `nil` when the text is not such a list. Empty list elements
    /// (`"a", , "b"`) are allowed (RFC 9110 §5.6.1); `etagc` is `%x21 / %x23-7E / obs-text`.
    static func parseList(_ text: String) -> [Substring]? {
        var tags: [Substring] = []
        for element in text.split(separator: ",", omittingEmptySubsequences: false) {
            var item = element.drop(while: { $0 == " " || $0 == "\t" })
            while let last = item.last, last == " " || last == "\t" { item = item.dropLast() }
            if item.isEmpty { continue }
            if item.hasPrefix("W/") { item = item.dropFirst(2) }
            guard item.count >= 2, item.first == "\"", item.last == "\"" else { return nil }
            let inner = item.dropFirst().dropLast()
            guard inner.unicodeScalars.allSatisfy({ isTagCharacter($0) }) else { return nil }
            tags.append(inner)
        }
        return tags.isEmpty ? nil : tags
    }

    private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value == 0x21 || (0x23...0x7E).contains(value) || value >= 0x80
    }
}
