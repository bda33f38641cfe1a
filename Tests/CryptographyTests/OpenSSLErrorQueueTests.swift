import Cryptography
import Testing

/// Every refused key and failed check leaves the thread's OpenSSL error queue empty, so a later unrelated
/// OpenSSL call never reports a stale error. The queue is per thread: these tests are synchronous, so each runs on
/// one thread from start to end.
@Suite struct OpenSSLErrorQueueTests {
    @Test("an RSA key OpenSSL's public-key check refuses (even exponent) leaves no error on the queue")
    func refusedRSAKey() {
        OpenSSLErrorQueue.clear()
        // n = 2^2047 + 1: 2048 bits and odd, so only OpenSSL's check (EVP_PKEY_public_check) refuses e = 2.
        let modulus = [0x80] + [UInt8](repeating: 0, count: 254) + [0x01]
        #expect(throws: CryptographyError.invalidKey(.weakRSAKey)) {
            try AsymmetricKey(rsaModulus: modulus, exponent: [0x02])
        }
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test("a bad ES256 signature, a point off the curve and malformed PEM leave no error on the queue")
    func otherFailures() throws {
        OpenSSLErrorQueue.clear()
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        let message = Array("payload".utf8)
        var signature = try key.signature(for: message)
        signature[10] ^= 0x01
        #expect(try !key.isValidSignature(signature, for: message))
        #expect(OpenSSLErrorQueue.isEmpty)
        #expect(throws: CryptographyError.self) {
            try AsymmetricKey(p256X: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32))
        }
        #expect(OpenSSLErrorQueue.isEmpty)
        #expect(throws: CryptographyError.self) {
            try AsymmetricKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", algorithm: .ed25519)
        }
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test("SecureMemory.cleanse zeroes every byte")
    func cleanse() {
        var bytes: [UInt8] = Array("private scalar bytes".utf8)
        SecureMemory.cleanse(&bytes)
        #expect(bytes.count == 20 && bytes.allSatisfy { $0 == 0 })
    }
}
