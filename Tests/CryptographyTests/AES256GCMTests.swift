import Cryptography
import Testing

@Suite struct AES256GCMTests {
    let key = (0..<32).map { UInt8($0) }

    /// The AES-256 test cases 13 to 16 of McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", the
    /// vectors NIST's GCM validation starts from (also checked against Python's `cryptography` AESGCM).
    static let vectors: [(name: String, key: String, nonce: String, plaintext: String, data: String, sealed: String)] =
        [
            (
                "test case 13", String(repeating: "00", count: 32), String(repeating: "00", count: 12), "", "",
                "530f8afbc74536b9a963b4f1c4cb738b"
            ),
            (
                "test case 14", String(repeating: "00", count: 32), String(repeating: "00", count: 12),
                String(repeating: "00", count: 16), "",
                "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919"
            ),
            (
                "test case 15", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
                "cafebabefacedbaddecaf888",
                "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
                "",
                "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015adb094dac5d93471bdec1a502270e3cc6c"
            ),
            (
                "test case 16", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
                "cafebabefacedbaddecaf888",
                "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
                "feedfacedeadbeeffeedfacedeadbeefabaddad2",
                "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f66276fc6ece0f4e1768cddf8853bb2d551b"
            ),
        ]

    @Test("the published AES-256 GCM vectors seal to their ciphertext and tag, and open back", arguments: 0..<4)
    func vectors(index: Int) throws {
        let vector = Self.vectors[index]
        let box = try AES256GCM(key: try #require(Hex.decode(vector.key)))
        let nonce = try #require(Hex.decode(vector.nonce))
        let plaintext = try #require(Hex.decode(vector.plaintext))
        let data = try #require(Hex.decode(vector.data))
        let sealed = try box.seal(plaintext, nonce: nonce, associatedData: data)
        #expect(Hex.encode(Array(sealed.dropFirst(12))) == vector.sealed, "\(vector.name)")
        #expect(Array(sealed.prefix(12)) == nonce)
        #expect(try box.open(sealed, associatedData: data) == plaintext, "\(vector.name)")
    }

    @Test("sealed data opens with the same key and associated data, and is 28 bytes longer")
    func roundTrip() throws {
        let box = try AES256GCM(key: key)
        for plaintext in [[], Array("a".utf8), Array(repeating: UInt8(7), count: 10_000)] {
            let sealed = try box.seal(plaintext, associatedData: Array("apple".utf8))
            #expect(sealed.count == plaintext.count + 28)
            #expect(try box.open(sealed, associatedData: Array("apple".utf8)) == plaintext)
        }
    }

    @Test("each seal draws a new nonce, so equal messages give different bytes")
    func freshNonce() throws {
        let box = try AES256GCM(key: key)
        let message = Array("same message".utf8)
        #expect(try box.seal(message) != box.seal(message))
    }

    @Test("a flipped bit anywhere, other associated data, another key or a truncated box are refused")
    func tampering() throws {
        let box = try AES256GCM(key: key)
        let sealed = try box.seal(Array("rt-secret-123456".utf8), associatedData: Array("apple".utf8))
        for index in sealed.indices {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: CryptographyError.authenticationFailed, "byte \(index)") {
                try box.open(altered, associatedData: Array("apple".utf8))
            }
        }
        #expect(throws: CryptographyError.authenticationFailed) {
            try box.open(sealed, associatedData: Array("google".utf8))
        }
        #expect(throws: CryptographyError.authenticationFailed) { try box.open(sealed) }
        let other = try AES256GCM(key: key.map { $0 ^ 0xFF })
        #expect(throws: CryptographyError.authenticationFailed) {
            try other.open(sealed, associatedData: Array("apple".utf8))
        }
        #expect(throws: CryptographyError.authenticationFailed) { try box.open(Array(sealed.prefix(27))) }
        #expect(throws: CryptographyError.authenticationFailed) { try box.open(Array(sealed.dropLast())) }
        #expect(throws: CryptographyError.authenticationFailed) { try box.open([]) }
    }

    @Test("keys other than 32 bytes and nonces other than 12 bytes are refused")
    func sizes() throws {
        for length in [0, 16, 31, 33, 64] {
            #expect(throws: CryptographyError.weakKey) { try AES256GCM(key: Array(repeating: 1, count: length)) }
        }
        let box = try AES256GCM(key: key)
        #expect(throws: CryptographyError.cryptoFailure) { try box.seal([1], nonce: Array(repeating: 0, count: 16)) }
    }

    @Test("the refusal's description names no input")
    func description() {
        #expect(CryptographyError.authenticationFailed.description.contains("does not authenticate"))
    }
}
