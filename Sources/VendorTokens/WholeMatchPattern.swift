/// A configured regular expression that must match a whole value (`pattern`, `allowedByRole`).
///
/// Compiled once at startup. The common shape `^[<ASCII class>]{m,n}$` (every preset pattern, and most configured
/// ones) is checked with a byte table instead of the regex engine: the same answer, without the engine's per-match
/// cost on the hot path.
final class WholeMatchPattern: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set in `init` and never mutated. `Regex` is not
    // declared Sendable (its `Output` is generic); matching only reads it, and `init` runs one match so the lazily
    // built matching program exists before the value is shared between threads.

    /// The pattern as configured.
    let source: String
    private let regex: Regex<AnyRegexOutput>?
    private let characterClass: ASCIIClassRun?

    /// Compiles `source`.
    ///
    /// - Throws: the regex parser's error for an invalid pattern.
    init(_ source: String) throws {
        self.source = source
        if let run = ASCIIClassRun(pattern: source) {
            self.characterClass = run
            self.regex = nil
        } else {
            let regex = try Regex(source)
            _ = "".wholeMatch(of: regex)
            self.regex = regex
            self.characterClass = nil
        }
    }

    /// Whether the pattern matches all of `text`.
    func matches(_ text: String) -> Bool {
        if let characterClass { return characterClass.matches(text) }
        guard let regex else { return false }
        return text.wholeMatch(of: regex) != nil
    }
}

/// `^[<class>]{min,max}$` over ASCII: letters, digits and punctuation, ranges `a-z`, `A-Z`, `0-9` (or parts of
/// them), with `-` literal first or last. Anything else is left to the regex engine.
struct ASCIIClassRun: Sendable {
    /// `allowed[byte]` for bytes below 0x80.
    let allowed: [Bool]
    let minimum: Int
    let maximum: Int

    /// Recognizes the shape; `nil` for any other pattern.
    init?(pattern: String) {
        var bytes = Array(pattern.utf8)
        if bytes.first == UInt8(ascii: "^") { bytes.removeFirst() }
        if bytes.last == UInt8(ascii: "$") { bytes.removeLast() }
        guard bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else {
            return nil
        }
        guard let allowed = Self.table(Array(bytes[1..<close])) else { return nil }
        guard let (minimum, maximum) = Self.quantifier(Array(bytes[(close + 1)...])) else { return nil }
        self.allowed = allowed
        self.minimum = minimum
        self.maximum = maximum
    }

    func matches(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            guard byte < 0x80, allowed[Int(byte)] else { return false }
            count += 1
            if count > maximum { return false }
        }
        return count >= minimum
    }

    /// The byte table of a class body, `nil` when it uses anything but plain ASCII items and alphanumeric ranges.
    private static func table(_ body: [UInt8]) -> [Bool]? {
        guard body.first != UInt8(ascii: "^") else { return nil }
        var allowed = [Bool](repeating: false, count: 128)
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard isPlain(byte) || (byte == UInt8(ascii: "-") && (index == 0 || index == body.count - 1)) else {
                return nil
            }
            if index + 2 < body.count, body[index + 1] == UInt8(ascii: "-") {
                let upper = body[index + 2]
                guard isAlphanumeric(byte), isAlphanumeric(upper), sameKind(byte, upper), byte <= upper else {
                    return nil
                }
                for member in byte...upper { allowed[Int(member)] = true }
                index += 3
            } else {
                allowed[Int(byte)] = true
                index += 1
            }
        }
        return allowed
    }

    /// `{m,n}`, `{n}`, `+` or `*`; `nil` for anything else.
    private static func quantifier(_ bytes: [UInt8]) -> (Int, Int)? {
        switch bytes {
        case [UInt8(ascii: "+")]: return (1, .max)
        case [UInt8(ascii: "*")]: return (0, .max)
        default: break
        }
        guard bytes.count >= 3, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        let parts = bytes.dropFirst().dropLast().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return nil
            }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        switch parts.count {
        case 1:
            guard let exact = number(parts[0]) else { return nil }
            return (exact, exact)
        case 2:
            guard let lower = number(parts[0]), let upper = number(parts[1]), lower <= upper else { return nil }
            return (lower, upper)
        default:
            return nil
        }
    }

    /// Printable ASCII that means itself inside a class (no `\`, `[`, `]`, `^`, `-`, and no `&`, `~`, `:` which the
    /// Swift regex syntax gives set-operation meanings when doubled).
    private static func isPlain(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "@")
            || byte == UInt8(ascii: "+")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func sameKind(_ a: UInt8, _ b: UInt8) -> Bool {
        func kind(_ byte: UInt8) -> Int { (0x30...0x39).contains(byte) ? 0 : (0x41...0x5A).contains(byte) ? 1 : 2 }
        return kind(a) == kind(b)
    }
}
