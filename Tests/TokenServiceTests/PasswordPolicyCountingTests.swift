import Testing

@testable import TokenService

/// The length rule counts Unicode code points as sent, as JSON Schema's `minLength`/`maxLength` in
/// docs/openapi.yaml do and as NIST SP 800-63B §5.1.1.2 asks ("each Unicode code point SHALL be counted as a
/// single character"), so a client that validates against the published schema is never refused on length.
@Suite struct PasswordPolicyCountingTests {
    @Test("8 code points that form 7 grapheme clusters meet a minimum of 8")
    func combiningMarkCountsAsACharacter() {
        let policy = PasswordPolicy(minLength: 8)
        // "©" followed by U+17B9 (a Khmer vowel sign) is one grapheme cluster of two code points.
        let raw = "|h\u{8}8\u{DB}\u{A9}\u{17B9}\u{D6}"
        #expect(raw.unicodeScalars.count == 8 && raw.count == 7)
        #expect(Self.accepts(policy, raw))
        #expect(Self.refusedOnLength(policy, String(raw.unicodeScalars.prefix(7).map(Character.init))))
    }

    @Test("the maximum is 128 code points, also when they form fewer grapheme clusters")
    func maximumInCodePoints() {
        let policy = PasswordPolicy(minLength: 8)
        let pair = "e\u{20DD}"  // a letter and an enclosing mark: one grapheme cluster, two code points
        #expect(Self.accepts(policy, String(repeating: pair, count: 64)))
        #expect(Self.refusedOnLength(policy, String(repeating: pair, count: 64) + "x"))
        #expect(Self.accepts(policy, String(repeating: "x", count: 128)))
        #expect(Self.refusedOnLength(policy, String(repeating: "x", count: 129)))
    }

    static func accepts(_ policy: PasswordPolicy, _ raw: String) -> Bool {
        if case .success = policy.newPassword(raw) { true } else { false }
    }

    static func refusedOnLength(_ policy: PasswordPolicy, _ raw: String) -> Bool {
        if case .failure(.length) = policy.newPassword(raw) { true } else { false }
    }
}
