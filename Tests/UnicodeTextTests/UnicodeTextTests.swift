import Testing
import UnicodeText

/// NFC and NFKC as libunistring computes them, compared by Unicode scalars (Swift's `==` ignores the difference
/// between canonically equivalent strings, so it could not tell NFC from NFD).
@Suite struct UnicodeTextTests {
    @Test(
        "NFC composes canonical sequences and leaves compatibility forms alone",
        arguments: [
            ("cafe\u{301}", "caf\u{E9}"), ("caf\u{E9}", "caf\u{E9}"), ("\u{212B}", "\u{C5}"), ("\u{FB01}", "\u{FB01}"),
            ("ａ", "ａ"), ("plain ascii", "plain ascii"), ("", ""),
        ])
    func nfc(raw: String, expected: String) {
        #expect(Array(UnicodeText.nfc(raw).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test(
        "NFKC folds full-width forms, ligatures, circled and mathematical letters, and composes",
        arguments: [
            ("ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ", "ada@example.com"), ("\u{FB01}nn", "finn"), ("\u{2460}", "1"),
            ("\u{1D400}", "A"), ("Zoe\u{301}", "Zo\u{E9}"), ("\u{3000}", " "), ("p\u{430}ypal", "p\u{430}ypal"),
        ])
    func nfkc(raw: String, expected: String) {
        #expect(Array(UnicodeText.nfkc(raw).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test("normalising a normalised string again gives it back")
    func idempotent() {
        for raw in ["\u{1E9E}tra\u{DF}e", "\u{2126}", "\u{FB03}", "e\u{301}\u{323}"] {
            let once = UnicodeText.nfkc(raw)
            #expect(Array(UnicodeText.nfkc(once).unicodeScalars) == Array(once.unicodeScalars))
            let canonical = UnicodeText.nfc(raw)
            #expect(Array(UnicodeText.nfc(canonical).unicodeScalars) == Array(canonical.unicodeScalars))
        }
    }

    @Test(
        "trimming removes surrounding white space and line ends of every kind, and nothing inside",
        arguments: [
            ("  ada@example.com\n", "ada@example.com"), ("\u{3000}ada\u{3000}", "ada"),
            ("\t\r\n\u{85}x\u{2028}\u{2029}", "x"),
            ("\u{A0}a b\u{202F}", "a b"), (" \n ", ""), ("", ""), ("x \u{301}", "x \u{301}"),
            ("\u{200B}x", "\u{200B}x"),
        ])
    func trimming(raw: String, expected: String) {
        #expect(Array(UnicodeText.trimmingWhitespaceAndNewlines(raw).unicodeScalars) == Array(expected.unicodeScalars))
    }
}
