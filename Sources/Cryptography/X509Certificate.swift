internal import COpenSSL

/// An X.509 certificate (RFC 5280) parsed and checked by OpenSSL: DER or PEM in, a chain verified to one pinned
/// root at a given time, an extension's raw value by OID, and the subject key's P-256 point.
///
/// Chain verification trusts exactly the root it is given: no system trust store, no CRL or OCSP fetches, no
/// network. Instances are immutable and safe to share between threads.
///
/// ```swift
/// let leaf = try X509Certificate(der: x5c[0])
/// try leaf.verifyChain(intermediates: [try X509Certificate(der: x5c[1])], root: root, at: now)
/// let nonce = try leaf.extensionValue(oid: "1.2.840.113635.100.8.2")
/// ```
///
/// `@unchecked Sendable`: the `X509` is fully parsed before the instance is published and never modified; OpenSSL
/// allows concurrent read-only use of one certificate (each verification builds its own store and context).
@safe public final class X509Certificate: @unchecked Sendable {
    /// The largest DER certificate accepted, in bytes.
    public static let maximumDERByteCount = 16 * 1024

    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) {
        unsafe self.pointer = pointer
    }

    deinit {
        unsafe X509_free(pointer)
    }

    /// Parses one DER certificate; trailing bytes are refused.
    /// - Throws: `CryptographyError.invalidCertificate` for bytes that are not one certificate, or over 16 KiB.
    public convenience init(der: [UInt8]) throws(CryptographyError) {
        guard !der.isEmpty, der.count <= Self.maximumDERByteCount else { throw .invalidCertificate }
        var consumed = 0
        let pointer = unsafe der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = unsafe buffer.baseAddress.map { unsafe UnsafePointer($0) }
            let certificate = unsafe d2i_X509(nil, &cursor, buffer.count)
            if let start = buffer.baseAddress { consumed = unsafe cursor.map { unsafe $0 - start } ?? 0 }
            return unsafe certificate
        }
        guard let pointer = unsafe pointer else {
            ERR_clear_error()
            throw .invalidCertificate
        }
        unsafe self.init(owning: pointer)
        guard consumed == der.count else { throw .invalidCertificate }
    }

    /// Parses a PEM text holding exactly one `CERTIFICATE` block (at most 64 KiB).
    /// - Throws: `CryptographyError.invalidCertificate` for anything else.
    public convenience init(pem: String) throws(CryptographyError) {
        let bytes = Array(pem.utf8)
        guard bytes.count <= 64 * 1024, PKey.beginLabels(in: bytes) == ["CERTIFICATE"] else {
            throw .invalidCertificate
        }
        let pointer = unsafe bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> OpaquePointer? in
            guard let bio = unsafe BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { unsafe BIO_free(bio) }
            return unsafe PEM_read_bio_X509(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let pointer = unsafe pointer else {
            ERR_clear_error()
            throw .invalidCertificate
        }
        unsafe self.init(owning: pointer)
    }

    /// The certificate's DER encoding.
    public var derBytes: [UInt8] {
        let count = Int(unsafe i2d_X509(pointer, nil))
        guard count > 0 else {
            ERR_clear_error()
            return []
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let written = unsafe bytes.withUnsafeMutableBufferPointer { target in
            var cursor = target.baseAddress
            return unsafe i2d_X509(pointer, &cursor)
        }
        return Int(written) == count ? bytes : []
    }

    /// The subject as RFC 2253 text (`ST=California,O=Apple Inc.,CN=…`).
    public var subject: String { unsafe Self.text(of: X509_get_subject_name(pointer)) }

    /// The issuer as RFC 2253 text.
    public var issuer: String { unsafe Self.text(of: X509_get_issuer_name(pointer)) }

    /// `notBefore`, in seconds since 1970 (nil when OpenSSL cannot convert it).
    public var notBefore: Int64? { unsafe Self.unixTime(X509_get0_notBefore(pointer)) }

    /// `notAfter`, in seconds since 1970 (nil when OpenSSL cannot convert it).
    public var notAfter: Int64? { unsafe Self.unixTime(X509_get0_notAfter(pointer)) }

    /// Whether the certificate names itself as issuer and its signature verifies with its own key.
    public var isSelfSigned: Bool {
        guard let key = unsafe X509_get0_pubkey(pointer) else {
            ERR_clear_error()
            return false
        }
        let signed = unsafe X509_check_issued(pointer, pointer) == X509_V_OK && X509_verify(pointer, key) == 1
        ERR_clear_error()
        return signed
    }

    /// The curve of an EC subject key, as OpenSSL names it (`prime256v1`, `secp384r1`); nil for other keys.
    public var publicKeyCurveName: String? {
        guard let key = subjectKey(), key.isA("EC") else { return nil }
        return key.utf8Parameter("group")
    }

    /// The subject key's P-256 point, uncompressed SEC1 (`04 ‖ x ‖ y`, 65 bytes).
    /// - Throws: `CryptographyError.invalidKey(.wrongKeyType)` when the key is not on P-256.
    public func p256PublicPoint() throws(CryptographyError) -> [UInt8] {
        guard let key = subjectKey(), key.isA("EC"), key.utf8Parameter("group") == "prime256v1" else {
            throw .invalidKey(.wrongKeyType)
        }
        return [0x04] + (try key.bigNumberParameter("qx", width: 32)) + (try key.bigNumberParameter("qy", width: 32))
    }

    /// The raw value (the `extnValue` OCTET STRING's content, itself DER) of the extension `oid` (dotted text).
    /// - Returns: nil when the certificate has no such extension.
    /// - Throws: `CryptographyError.invalidCertificate` when the extension appears more than once (RFC 5280
    ///   §4.2) or `oid` is not a dotted OID.
    public func extensionValue(oid: String) throws(CryptographyError) -> [UInt8]? {
        guard let object = unsafe OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            throw .invalidCertificate
        }
        defer { unsafe ASN1_OBJECT_free(object) }
        let index = unsafe X509_get_ext_by_OBJ(pointer, object, -1)
        guard index >= 0 else { return nil }
        guard unsafe X509_get_ext_by_OBJ(pointer, object, index) < 0 else { throw .invalidCertificate }
        guard let entry = unsafe X509_get_ext(pointer, index), let data = unsafe X509_EXTENSION_get_data(entry),
            let start = unsafe ASN1_STRING_get0_data(data)
        else {
            ERR_clear_error()
            throw .invalidCertificate
        }
        let length = Int(unsafe ASN1_STRING_length(data))
        return unsafe Array(UnsafeBufferPointer(start: start, count: max(0, length)))
    }

    /// Verifies this certificate through `intermediates` (untrusted, any order) to `root`, the only trust anchor,
    /// at `time` (seconds since 1970): every signature, every validity period, CA constraints. No system trust
    /// store, no CRL fetches.
    /// - Throws: `CryptographyError.certificateRejected` with `.expired`, `.notYetValid` or `.untrusted`;
    ///   `.invalidCertificate` for more than `maximumIntermediates` intermediates; `.cryptoFailure`.
    public func verifyChain(
        intermediates: [X509Certificate], root: X509Certificate, at time: Int64, maximumIntermediates: Int = 4
    ) throws(CryptographyError) {
        guard intermediates.count <= maximumIntermediates else { throw .invalidCertificate }
        var error: Int32 = 0
        let pointers: [OpaquePointer?] = unsafe intermediates.map { unsafe $0.pointer }
        let verified = withExtendedLifetime((intermediates, root)) {
            unsafe pointers.withUnsafeBufferPointer { list in
                unsafe tokenvend_x509_verify_chain(
                    pointer, list.baseAddress, Int32(list.count), root.pointer, time, Int32(maximumIntermediates),
                    &error)
            }
        }
        ERR_clear_error()
        guard verified != 1 else { return }
        switch error {
        case -1: throw .cryptoFailure
        case X509_V_ERR_CERT_HAS_EXPIRED: throw .certificateRejected(.expired)
        case X509_V_ERR_CERT_NOT_YET_VALID: throw .certificateRejected(.notYetValid)
        default: throw .certificateRejected(.untrusted)
        }
    }

    /// The OpenSSL text of a verification error code, for logs (`certificate has expired`).
    public static func verificationErrorText(_ code: Int32) -> String {
        guard let text = unsafe X509_verify_cert_error_string(Int(code)) else { return "error \(code)" }
        return unsafe String(cString: text)
    }

    /// The subject key, with a reference of its own.
    private func subjectKey() -> PKey? {
        guard let key = unsafe X509_get_pubkey(pointer) else {
            ERR_clear_error()
            return nil
        }
        return unsafe PKey(owning: key)
    }

    private static func text(of name: OpaquePointer?) -> String {
        guard let name = unsafe name, let bio = unsafe BIO_new(BIO_s_mem()) else { return "" }
        defer { unsafe BIO_free(bio) }
        guard unsafe X509_NAME_print_ex(bio, name, 0, tokenvend_xn_flag_rfc2253()) >= 0 else {
            ERR_clear_error()
            return ""
        }
        let pending = Int(unsafe BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = unsafe bytes.withUnsafeMutableBufferPointer { unsafe BIO_read(bio, $0.baseAddress, Int32(pending)) }
        return String(decoding: bytes.prefix(max(0, Int(read))), as: UTF8.self)
    }

    private static func unixTime(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        var seconds: Int64 = 0
        guard unsafe tokenvend_asn1_time_unix(time, &seconds) == 1 else {
            ERR_clear_error()
            return nil
        }
        return seconds
    }
}
