import Cryptography
import Testing

@Suite struct XChaCha20Poly1305Tests {
    let key = (0..<32).map { UInt8($0) }

    @Test("sealed data opens with the same key and associated data, and is 40 bytes longer")
    func roundTrip() throws {
        let box = try XChaCha20Poly1305(key: key)
        for plaintext in [[], Array("a".utf8), Array(repeating: UInt8(7), count: 10_000)] {
            let sealed = try box.seal(plaintext, associatedData: Array("row-1".utf8))
            #expect(sealed.count == plaintext.count + 40)
            #expect(box.open(sealed, associatedData: Array("row-1".utf8)) == plaintext)
        }
    }

    @Test("each seal draws a new nonce, so equal messages give different bytes")
    func freshNonce() throws {
        let box = try XChaCha20Poly1305(key: key)
        let message = Array("same message".utf8)
        #expect(try box.seal(message) != box.seal(message))
    }

    @Test("a flipped bit, other associated data, another key or a truncated box do not open")
    func refusals() throws {
        let box = try XChaCha20Poly1305(key: key)
        let sealed = try box.seal(Array("secret 123456".utf8), associatedData: Array("row-1".utf8))
        for index in [0, 23, 24, sealed.count - 1] {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(box.open(altered, associatedData: Array("row-1".utf8)) == nil, "byte \(index)")
        }
        #expect(box.open(sealed, associatedData: Array("row-2".utf8)) == nil)
        #expect(box.open(sealed) == nil)
        let other = try XChaCha20Poly1305(key: key.map { $0 ^ 0xFF })
        #expect(other.open(sealed, associatedData: Array("row-1".utf8)) == nil)
        #expect(box.open(Array(sealed.prefix(39))) == nil)
        #expect(box.open([]) == nil)
    }

    @Test("a key that is not 32 bytes is refused")
    func keyLength() {
        #expect(throws: CryptographyError.weakKey) { try XChaCha20Poly1305(key: Array(repeating: 1, count: 31)) }
        #expect(throws: CryptographyError.weakKey) { try XChaCha20Poly1305(key: Array(repeating: 1, count: 33)) }
    }
}
