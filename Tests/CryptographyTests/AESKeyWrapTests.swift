import Cryptography
import Testing

@Suite struct AESKeyWrapTests {
    /// RFC 3394 §4.3, §4.5 and §4.6: the 256-bit KEK wrapping 128, 192 and 256 bits of key data.
    static let vectors: [(name: String, keyData: String, wrapped: String)] = [
        ("§4.3", "00112233445566778899aabbccddeeff", "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7"),
        (
            "§4.5", "00112233445566778899aabbccddeeff0001020304050607",
            "a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1"
        ),
        (
            "§4.6", "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f",
            "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21"
        ),
    ]
    static let kek = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

    @Test("unwraps and wraps RFC 3394's vectors for a 256-bit key-encryption key", arguments: vectors)
    func knownAnswers(vector: (name: String, keyData: String, wrapped: String)) throws {
        let kek = try #require(Hex.decode(Self.kek))
        let keyData = try #require(Hex.decode(vector.keyData))
        let wrapped = try #require(Hex.decode(vector.wrapped))
        #expect(try AESKeyWrap.unwrap(wrapped, key: kek) == keyData, "\(vector.name)")
        #expect(try AESKeyWrap.wrap(keyData, key: kek) == wrapped, "\(vector.name)")
    }

    @Test("refuses a wrapped key with any one byte altered")
    func refusesTampered() throws {
        let kek = try #require(Hex.decode(Self.kek))
        let wrapped = try #require(Hex.decode(Self.vectors[2].wrapped))
        for index in wrapped.indices {
            var tampered = wrapped
            tampered[index] ^= 0x01
            #expect(throws: CryptographyError.authenticationFailed) { try AESKeyWrap.unwrap(tampered, key: kek) }
        }
    }

    @Test("refuses another key-encryption key, wrong lengths and a short key")
    func refusesWrongInput() throws {
        let kek = try #require(Hex.decode(Self.kek))
        let wrapped = try #require(Hex.decode(Self.vectors[2].wrapped))
        var otherKEK = kek
        otherKEK[0] ^= 0x80
        #expect(throws: CryptographyError.authenticationFailed) { try AESKeyWrap.unwrap(wrapped, key: otherKEK) }
        #expect(throws: CryptographyError.authenticationFailed) {
            try AESKeyWrap.unwrap(Array(wrapped.dropLast()), key: kek)
        }
        #expect(throws: CryptographyError.authenticationFailed) {
            try AESKeyWrap.unwrap(Array(wrapped.prefix(16)), key: kek)
        }
        #expect(throws: CryptographyError.authenticationFailed) { try AESKeyWrap.unwrap([], key: kek) }
        #expect(throws: CryptographyError.weakKey) { try AESKeyWrap.unwrap(wrapped, key: Array(kek.prefix(16))) }
    }

    @Test("opens a message whose nonce, ciphertext and tag travel apart, and refuses another AAD")
    func gcmDetached() throws {
        let box = try AES256GCM(key: try #require(Hex.decode(Self.kek)))
        let sealed = try box.seal(Array("verdict".utf8), associatedData: Array("header".utf8))
        let nonce = Array(sealed.prefix(12))
        let tag = Array(sealed.suffix(16))
        let ciphertext = Array(sealed.dropFirst(12).dropLast(16))
        let opened = try box.open(ciphertext: ciphertext, nonce: nonce, tag: tag, associatedData: Array("header".utf8))
        #expect(opened == Array("verdict".utf8))
        #expect(throws: CryptographyError.authenticationFailed) {
            try box.open(ciphertext: ciphertext, nonce: nonce, tag: tag, associatedData: Array("other".utf8))
        }
        #expect(throws: CryptographyError.authenticationFailed) {
            try box.open(ciphertext: ciphertext, nonce: Array(nonce.prefix(8)), tag: tag)
        }
    }
}
