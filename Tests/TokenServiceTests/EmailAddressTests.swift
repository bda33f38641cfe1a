import Testing

@testable import TokenService

/// The one form emails are stored and compared in: NFKC, lowercase, trimmed.
@Suite struct EmailAddressTests {
    @Test(
        "compatibility forms fold to the plain address: full-width, ligatures, decomposed accents, case, spaces",
        arguments: [
            ("ａｄａ@example.com", "ada@example.com"),
            ("ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ", "ada@example.com"),
            ("ＡＤＡ@Example.COM", "ada@example.com"),
            ("\u{FB01}nn@example.com", "finn@example.com"),
            ("Zoe\u{301}@example.com", "zo\u{E9}@example.com"),
            ("\u{3000}ada@example.com\u{3000}", "ada@example.com"),
            ("  ada@example.com\n", "ada@example.com"),
            ("ada\u{2460}@example.com", "ada1@example.com"),
        ])
    func folds(raw: String, expected: String) throws {
        #expect(try #require(EmailAddress(raw)).value == expected)
    }

    @Test(
        "letters of other scripts that only look alike stay distinct",
        arguments: ["p\u{430}ypal@example.com", "\u{3B1}da@example.com", "ad\u{430}@example.com"])
    func otherScripts(raw: String) throws {
        let address = try #require(EmailAddress(raw))
        #expect(address.value == raw)
        #expect(address.value != "paypal@example.com" && address.value != "ada@example.com")
    }

    @Test(
        "the normal form is stable: normalising a stored address again gives it back",
        arguments: [
            "ａｄａ@example.com", "\u{130}stanbul@example.com", "\u{1E9E}tra\u{DF}e@example.com", "\u{2126}@example.com",
            "\u{212B}ngstr\u{F6}m@example.com", "\u{FB03}@example.com", "\u{1D400}@example.com",
        ])
    func stable(raw: String) throws {
        let once = try #require(EmailAddress(raw)).value
        #expect(EmailAddress.normalise(once) == once)
        #expect(EmailAddress(once)?.value == once)
    }

    @Test(
        "a compatibility form that folds to something invalid is refused",
        arguments: ["ada\u{FF20}\u{FF20}example.com", "ada@example\u{2024}\u{2024}com", "ada\u{A0}b@example.com"])
    func invalidAfterFolding(raw: String) {
        #expect(EmailAddress(raw) == nil)
    }
}
