import IdentityProviders
import Testing

@Suite struct PKCETests {
    /// RFC 7636 Appendix B.
    static let rfcVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let rfcChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test("the challenge of RFC 7636 appendix B's verifier is the RFC's value")
    func rfcVector() throws {
        #expect(try PKCE.challenge(for: Self.rfcVerifier) == Self.rfcChallenge)
        #expect(PKCE.matches(verifier: Self.rfcVerifier, challenge: Self.rfcChallenge))
    }

    @Test("a made verifier is 43 unreserved characters, valid, fresh, and its challenge is 43 base64url characters")
    func madeVerifier() throws {
        let first = try PKCE.makeVerifier()
        let second = try PKCE.makeVerifier()
        #expect(first.utf8.count == 43)
        #expect(first != second)
        #expect(PKCE.isValidVerifier(first))
        let challenge = try PKCE.challenge(for: first)
        #expect(challenge.utf8.count == 43)
        #expect(PKCE.isValidChallenge(challenge))
        #expect(challenge.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }

    @Test("verifier length edges: 42 and 129 refused, 43 and 128 accepted")
    func verifierLengths() {
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42)))
        #expect(PKCE.isValidVerifier(String(repeating: "a", count: 43)))
        #expect(PKCE.isValidVerifier(String(repeating: "~", count: 128)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 129)))
        #expect(!PKCE.isValidVerifier(""))
    }

    @Test("a verifier with a character outside [A-Za-z0-9-._~] is refused and never matches")
    func forbiddenCharacter() throws {
        let base = String(repeating: "a", count: 42)
        for bad in ["+", "/", "=", " ", "%", "é"] {
            let verifier = base + bad
            #expect(!PKCE.isValidVerifier(verifier), "\(bad)")
            #expect(!PKCE.matches(verifier: verifier, challenge: try PKCE.challenge(for: verifier)))
        }
        #expect(PKCE.isValidVerifier(String(repeating: "A", count: 39) + "-._~"))
    }

    @Test("matches compares equal values true and unequal ones (same length, other length, empty) false")
    func constantTimeCompare() throws {
        let verifier = try PKCE.makeVerifier()
        let challenge = try PKCE.challenge(for: verifier)
        #expect(PKCE.matches(verifier: verifier, challenge: challenge))
        var flipped = Array(challenge.utf8)
        flipped[42] = flipped[42] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(!PKCE.matches(verifier: verifier, challenge: String(decoding: flipped, as: UTF8.self)))
        #expect(!PKCE.matches(verifier: verifier, challenge: String(challenge.dropLast())))
        #expect(!PKCE.matches(verifier: verifier, challenge: ""))
        #expect(!PKCE.matches(verifier: try PKCE.makeVerifier(), challenge: challenge))
    }

    @Test("a challenge must be 43 base64url characters encoding 32 bytes")
    func challengeValidation() {
        #expect(PKCE.isValidChallenge(Self.rfcChallenge))
        #expect(!PKCE.isValidChallenge(String(Self.rfcChallenge.dropLast())))
        #expect(!PKCE.isValidChallenge(Self.rfcChallenge + "A"))
        #expect(!PKCE.isValidChallenge(String(Self.rfcChallenge.dropLast()) + "="))
        #expect(!PKCE.isValidChallenge(String(Self.rfcChallenge.dropLast()) + "."))
        // The last character carries 4 unused bits: "N" (…001101) leaves them non-zero.
        #expect(!PKCE.isValidChallenge(String(Self.rfcChallenge.dropLast()) + "N"))
    }

    @Test("tokens are 43 base64url characters and differ; sha256Hex is the lowercase hex digest")
    func randomTokens() throws {
        let first = try OAuthRandom.token()
        #expect(first.utf8.count == 43)
        #expect(first != (try OAuthRandom.token()))
        #expect(PKCE.isValidChallenge(first))
        #expect(
            try OAuthRandom.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("form encoding percent-encodes everything outside the unreserved set and decodes back")
    func formEncoding() throws {
        #expect(FormEncoding.percentEncode("a b:c/é~._-") == "a%20b%3Ac%2F%C3%A9~._-")
        let pairs = [("redirect_uri", "https://x.example/cb?a=1&b=2"), ("scope", "openid email")]
        let encoded = FormEncoding.encode(pairs)
        #expect(encoded == "redirect_uri=https%3A%2F%2Fx.example%2Fcb%3Fa%3D1%26b%3D2&scope=openid+email")
        let decoded = try #require(FormEncoding.decode(encoded))
        #expect(decoded.map(\.0) == ["redirect_uri", "scope"])
        #expect(decoded.map(\.1) == ["https://x.example/cb?a=1&b=2", "openid email"])
        #expect(FormEncoding.decode("a=%zz") == nil)
        // RFC 6749 Appendix B's example.
        #expect(FormEncoding.formEscape(" %\"&+£€") == "+%25%22%26%2B%C2%A3%E2%82%AC")
        #expect(FormEncoding.decode("a=b+c")?.first?.1 == "b c")
    }
}
