import Cryptography
import Testing

@Suite struct Base64URLTests {
    // RFC 4648 §10, with the URL alphabet and no padding.
    @Test(
        "encodes and decodes the RFC 4648 vectors",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ])
    func vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("uses - and _ instead of + and /")
    func urlAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
    }

    @Test(
        "rejects padding, the standard alphabet, whitespace, impossible lengths and non-canonical bits",
        arguments: ["Zg==", "Zm8=", "+/+/", "Zm 9v", "Zm9v\n", "Z", "Zm9vY", "Zh", "Zm9", "Zg.", "é"])
    func rejects(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("round-trips random bytes of every length up to 300")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}
