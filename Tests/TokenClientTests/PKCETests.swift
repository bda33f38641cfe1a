import Foundation
import Testing

@testable import TokenClient
@testable import TokenClientCore

/// PKCE's S256 and the SHA-256 behind it, on the platform's path (CryptoKit on Apple, the portable one elsewhere)
/// and on the portable one everywhere.
@Suite struct PKCETests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// FIPS 180-4 examples (NIST's SHA-256 example values) and the empty message, plus a message that needs a
    /// second padding block (56 bytes) and one of several blocks.
    static let vectors: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ]

    @Test("the portable SHA-256 matches the FIPS 180-4 examples", arguments: 0..<4)
    func portableVectors(index: Int) {
        let (message, digest) = Self.vectors[index]
        #expect(Self.hex(PortableSHA256.hash(Array(message.utf8))) == digest)
        #expect(Self.hex(PKCE.sha256(Array(message.utf8))) == digest)
    }

    @Test("the portable SHA-256 of a million 'a' is FIPS 180-4's")
    func millionA() {
        let digest = PortableSHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(Self.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Digests of bytes `i * 31 + 7` (mod 256) of each length around the padding boundaries, from Python's hashlib.
    static let lengths: [(Int, String)] = [
        (1, "ca358758f6d27e6cf45272937977a748fd88391db679ceda7dc7bf1f005ee879"),
        (54, "c802146d5788fb540fbf29d8ff485730ad10f4f13b78961c032e78691b582647"),
        (55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"),
        (56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"),
        (57, "5b46e502092be01b1100193e089fdda95638c12e19a1d24f308eb2c3d3ae849d"),
        (63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"),
        (64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"),
        (65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"),
        (119, "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe"),
        (120, "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656"),
        (127, "192409cd280e14b743642ad1343fbd3e82d9305de72c078117745a679210cc3d"),
        (128, "cc548ca2dec1f6fe4f58b2e27aa9c7521607df1130d140b55a4dad0665302356"),
        (129, "81e89a7b2911aaa7795f9e3d4910cb47d6cd2b00d83b8399481527261a1a7519"),
    ]

    @Test("the SHA-256 paths are right at every length around the block boundaries", arguments: 0..<13)
    func lengths(index: Int) {
        let (length, digest) = Self.lengths[index]
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(Self.hex(PortableSHA256.hash(message)) == digest)
        #expect(Self.hex(PKCE.sha256(message)) == digest)
    }

    /// RFC 7636 appendix B: its 32 octets, their base64url (the verifier) and the S256 challenge. (The pair in
    /// the issue brief, `dBjftJeZ4CVP-mJ0kjTCL6yGd2pTTLy7yAl2eK-M_ew` → `E9Melhoa2OwvFrEMTJguCgoEbk0VxrvqWaGqBNSsSRw`,
    /// is not the RFC's and not a SHA-256 pair: its verifier hashes to `skYvHkPYLz5ectzZj10lQLAt-AgJurJB-Mx5VeLFqg0`.)
    @Test("RFC 7636 appendix B: the octets' verifier and its S256 challenge, on both SHA-256 paths")
    func rfc7636() {
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214,
            191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(Base64URL.encode(octets) == verifier)
        #expect(PKCE.challenge(for: verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(
            Base64URL.encode(PortableSHA256.hash(Array(verifier.utf8))) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        )
    }

    @Test("base64url without padding: RFC 4648 §10's examples, with - and _ for + and /")
    func base64URL() {
        let cases: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases { #expect(Base64URL.encode(Array(plain.utf8)) == encoded) }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
    }

    @Test("a verifier is 43 unreserved characters and fresh every time")
    func verifiers() {
        let verifiers = (0..<64).map { _ in PKCE.makeVerifier() }
        #expect(Set(verifiers).count == 64)
        for verifier in verifiers {
            #expect(verifier.count == 43)
            #expect(
                verifier.utf8.allSatisfy {
                    $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0.isASCIIAlphanumeric
                })
            #expect(PKCE.challenge(for: verifier).count == 43)
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
