/// Reads `WWW-Authenticate` (RFC 7235 §4.1, RFC 6750 §3) far enough to answer one question: did the server refuse
/// the bearer token itself (`error="invalid_token"`), which a refresh can cure?
///
/// A 401 from a proxy or a captive portal carries no such challenge (or another scheme), and neither does a 401 for
/// a request that sent no token; refreshing would not help, so the session does not.
enum BearerChallenge {
    /// True when `header` holds a `Bearer` challenge whose `error` parameter is `invalid_token` (quoted or not,
    /// any case for the scheme and parameter name), among any number of challenges.
    /// A `DPoP` challenge with `invalid_token` (a bound token sent as `Bearer`, RFC 9449 §7.1) counts the same.
    static func isInvalidToken(_ header: String?) -> Bool {
        hasError("invalid_token", schemes: ["bearer", "dpop"], header)
    }

    /// True when `header` holds a challenge of one of `schemes` (lowercase) whose `error` parameter is `code`.
    static func hasError(_ code: String, schemes: Set<String>, _ header: String?) -> Bool {
        guard let header else { return false }
        var inScheme = false
        for item in items(of: header) {
            switch item {
            case .scheme(let name):
                inScheme = schemes.contains(name.lowercased())
            case .parameter(let name, let value):
                if inScheme, name.lowercased() == "error", value == code { return true }
            }
        }
        return false
    }

    /// True when `header` holds a challenge of the scheme `name` (any case), among any number of challenges.
    static func hasScheme(_ name: String, _ header: String?) -> Bool {
        guard let header else { return false }
        return items(of: header).contains { item in
            if case .scheme(let scheme) = item { return scheme.lowercased() == name.lowercased() }
            return false
        }
    }

    private enum Item {
        case scheme(String)
        case parameter(String, String)
    }

    /// The header as a flat list: each challenge's scheme, then its `name=value` parameters (quoted strings
    /// unescaped). A token68 or anything malformed is skipped.
    private static func items(of header: String) -> [Item] {
        var items: [Item] = []
        var characters = Array(header)[...]
        func skipSpaceAndCommas() {
            while let first = characters.first, first == " " || first == "\t" || first == "," {
                characters.removeFirst()
            }
        }
        func token() -> String {
            var text = ""
            while let first = characters.first, first != " ", first != "\t", first != ",", first != "=" {
                text.append(first)
                characters.removeFirst()
            }
            return text
        }
        while true {
            skipSpaceAndCommas()
            guard !characters.isEmpty else { return items }
            let name = token()
            while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
            guard characters.first == "=" else {
                if !name.isEmpty { items.append(.scheme(name)) }
                continue
            }
            characters.removeFirst()
            while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
            var value = ""
            if characters.first == "\"" {
                characters.removeFirst()
                while let first = characters.first, first != "\"" {
                    characters.removeFirst()
                    if first == "\\", let escaped = characters.first {
                        value.append(escaped)
                        characters.removeFirst()
                    } else {
                        value.append(first)
                    }
                }
                if !characters.isEmpty { characters.removeFirst() }
            } else {
                value = token()
                // A token68 (`Basic YWxh=`) ends in '='s: not a parameter.
                while characters.first == "=" { characters.removeFirst() }
            }
            items.append(.parameter(name, value))
        }
    }
}
