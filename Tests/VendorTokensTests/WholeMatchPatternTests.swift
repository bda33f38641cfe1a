import Testing

@testable import VendorTokens

/// The byte-table fast path must answer exactly as Swift `Regex` whole matching does.
@Suite struct WholeMatchPatternTests {
    static let patterns = [
        "^[A-Za-z0-9_-]{1,64}$", "^[a-z0-9_-]{1,16}$", "[a-z]+", "^[0-9]*$", "^[A-F]{3}$", "[-a-c.@+]{0,4}",
        "^[a-z]{2,3}",
    ]
    static let inputs = [
        "", "a", "abc", "abcd", "ABC", "lobby-1", "lobby_1", "lobby 1", "lobby\n", "é", "ab-", "-", ".", "@", "+",
        "0123", String(repeating: "a", count: 64), String(repeating: "a", count: 65), "a\u{301}", "Ａ",
    ]

    @Test("recognizes the simple class shapes", arguments: patterns)
    func recognized(pattern: String) {
        #expect(ASCIIClassRun(pattern: pattern) != nil)
    }

    @Test(
        "leaves every other shape to the regex engine",
        arguments: [
            "^(a|b)$", "^[^a]+$", "[a-z]{2,}", "^[a-z]{3}x$", "[\\w]+", "[a-z&&b]+", "^[z-a]+$", "^[a-Z]+$", "[]",
        ])
    func notRecognized(pattern: String) {
        #expect(ASCIIClassRun(pattern: pattern) == nil)
    }

    @Test("answers as Regex does", arguments: patterns)
    func sameAnswers(pattern: String) throws {
        let fast = try #require(ASCIIClassRun(pattern: pattern))
        let regex = try Regex(pattern)
        for input in Self.inputs {
            #expect(
                fast.matches(input) == (input.wholeMatch(of: regex) != nil), "\(pattern) on \(input.debugDescription)")
        }
    }

    @Test("a general pattern matches the whole value through Regex")
    func general() throws {
        let pattern = try WholeMatchPattern("^(lobby|stage)-[0-9]+$")
        #expect(pattern.matches("lobby-12"))
        #expect(!pattern.matches("lobby-12x"))
        #expect(!pattern.matches("xlobby-12"))
        let unanchored = try WholeMatchPattern("a|b")
        #expect(unanchored.matches("a"))
        #expect(!unanchored.matches("ab"))
    }
}
