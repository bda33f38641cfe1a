internal import COpenSSL

extension PKey {
    /// The PEM labels this library loads, and whether each holds a private key.
    static let pemLabels: [String: Bool] = ["PRIVATE KEY": true, "EC PRIVATE KEY": true, "PUBLIC KEY": false]

    /// Decodes one PEM key: PKCS#8 `PRIVATE KEY`, SEC1 `EC PRIVATE KEY` or SPKI `PUBLIC KEY`.
    ///
    /// An `EC PARAMETERS` block (as `openssl ecparam -genkey` writes before the key) is skipped; any other block,
    /// an encrypted key, or a second key is refused. Never prompts for a passphrase.
    static func decode(pem bytes: [UInt8]) throws(CryptographyError) -> (key: PKey, isPrivate: Bool) {
        guard bytes.count <= 64 * 1024 else { throw .invalidKey(.malformedPEM) }
        let labels = beginLabels(in: bytes).filter { $0 != "EC PARAMETERS" }
        guard labels.count == 1, let label = labels.first else {
            throw .invalidKey(labels.isEmpty ? .malformedPEM : .unsupportedPEM)
        }
        guard let isPrivate = pemLabels[label] else { throw .invalidKey(.unsupportedPEM) }
        let pointer = unsafe bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> OpaquePointer? in
            guard let bio = unsafe BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { unsafe BIO_free(bio) }
            // The callback refuses every passphrase, so an encrypted key fails instead of prompting.
            return
                isPrivate
                ? unsafe PEM_read_bio_PrivateKey_ex(bio, nil, { _, _, _, _ in -1 }, nil, nil, nil)
                : unsafe PEM_read_bio_PUBKEY_ex(bio, nil, { _, _, _, _ in -1 }, nil, nil, nil)
        }
        guard let pointer = unsafe pointer else {
            ERR_clear_error()
            throw .invalidKey(.malformedPEM)
        }
        return (unsafe PKey(owning: pointer), isPrivate)
    }

    /// The labels of every `-----BEGIN …-----` line, in order.
    static func beginLabels(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var labels: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.trimmingSpaces
            guard trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----"), trimmed.count > 16 else { continue }
            labels.append(String(trimmed.dropFirst(11).dropLast(5)))
        }
        return labels
    }

    /// A P-256 key from its affine coordinates and, for a private key, its scalar (each 32 bytes, big-endian).
    static func p256(x: [UInt8], y: [UInt8], d: [UInt8]?) throws(CryptographyError) -> PKey {
        guard x.count == 32, y.count == 32, d.map({ $0.count == 32 }) ?? true else {
            throw .invalidKey(.wrongComponentLength)
        }
        let point: [UInt8] = [0x04] + x + y
        let pointer = unsafe point.withUnsafeBufferPointer { point in
            guard let d else { return unsafe tokenvend_pkey_p256(point.baseAddress, point.count, nil, 0) }
            return unsafe d.withUnsafeBufferPointer { scalar in
                unsafe tokenvend_pkey_p256(point.baseAddress, point.count, scalar.baseAddress, scalar.count)
            }
        }
        guard let pointer = unsafe pointer else {
            // OpenSSL refuses a point that is not on the curve or a coordinate that is not below p here.
            ERR_clear_error()
            throw .invalidKey(d == nil ? .invalidPublicKey : .invalidPrivateKey)
        }
        let key = unsafe PKey(owning: pointer)
        guard key.check(isPrivate: d != nil) else {
            ERR_clear_error()
            throw .invalidKey(d == nil ? .invalidPublicKey : .mismatchedPublicKey)
        }
        return key
    }

    /// An RSA public key from its modulus and exponent (big-endian, without sign byte).
    static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(CryptographyError) -> PKey {
        guard !modulus.isEmpty, !exponent.isEmpty, modulus.count <= 2048, exponent.count <= 64 else {
            throw .invalidKey(.weakRSAKey)
        }
        let pointer = unsafe modulus.withUnsafeBufferPointer { n in
            unsafe exponent.withUnsafeBufferPointer { e in
                unsafe tokenvend_pkey_rsa_public(n.baseAddress, n.count, e.baseAddress, e.count)
            }
        }
        guard let pointer = unsafe pointer else {
            ERR_clear_error()
            throw .invalidKey(.weakRSAKey)
        }
        return unsafe PKey(owning: pointer)
    }

    /// An Ed25519 key from its raw public key and, for a private key, its 32-byte seed.
    static func ed25519(x: [UInt8]?, d: [UInt8]?) throws(CryptographyError) -> PKey {
        guard x.map({ $0.count == 32 }) ?? true, d.map({ $0.count == 32 }) ?? true else {
            throw .invalidKey(.wrongComponentLength)
        }
        let pointer: OpaquePointer?
        if let d {
            unsafe pointer = d.withUnsafeBufferPointer {
                unsafe EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, $0.baseAddress, 32)
            }
        } else if let x {
            unsafe pointer = x.withUnsafeBufferPointer {
                unsafe EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, $0.baseAddress, 32)
            }
        } else {
            throw .invalidKey(.wrongComponentLength)
        }
        guard let pointer = unsafe pointer else {
            ERR_clear_error()
            throw .invalidKey(d == nil ? .invalidPublicKey : .invalidPrivateKey)
        }
        let key = unsafe PKey(owning: pointer)
        if d != nil, let x, try key.rawPublicKey() != x { throw .invalidKey(.mismatchedPublicKey) }
        return key
    }

    /// A new random key of `type` (`"EC"` on P-256, or `"ED25519"`).
    static func generate(type: String) throws(CryptographyError) -> PKey {
        guard let context = unsafe EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        defer { unsafe EVP_PKEY_CTX_free(context) }
        var pointer: OpaquePointer? = nil
        guard unsafe EVP_PKEY_keygen_init(context) == 1,
            unsafe type != "EC" || EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            unsafe EVP_PKEY_generate(context, &pointer) == 1, let pointer = unsafe pointer
        else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        return unsafe PKey(owning: pointer)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension PKey {
    /// Decodes a DER SubjectPublicKeyInfo; trailing bytes are refused.
    static func decode(subjectPublicKeyInfo der: [UInt8]) throws(CryptographyError) -> PKey {
        guard !der.isEmpty, der.count <= 16 * 1024 else { throw .invalidKey(.invalidPublicKey) }
        var consumed = 0
        let pointer = unsafe der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = unsafe buffer.baseAddress.map { unsafe UnsafePointer($0) }
            let key = unsafe d2i_PUBKEY_ex(nil, &cursor, buffer.count, nil, nil)
            if let start = buffer.baseAddress { consumed = unsafe cursor.map { unsafe $0 - start } ?? 0 }
            return unsafe key
        }
        guard let pointer = unsafe pointer else {
            ERR_clear_error()
            throw .invalidKey(.invalidPublicKey)
        }
        let key = unsafe PKey(owning: pointer)
        guard consumed == der.count else { throw .invalidKey(.invalidPublicKey) }
        return key
    }
}

/// Standard base64 with padding (RFC 4648 §4), for PEM bodies.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Array(Base64URL.encode(bytes).utf8)
        for index in text.indices {
            if text[index] == UInt8(ascii: "-") { text[index] = UInt8(ascii: "+") }
            if text[index] == UInt8(ascii: "_") { text[index] = UInt8(ascii: "/") }
        }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        return String(decoding: text, as: UTF8.self)
    }
}
