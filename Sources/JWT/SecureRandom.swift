internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
enum SecureRandom {
    static func bytes(count: Int) throws(JWTError) -> [UInt8] {
        precondition(count > 0 && count <= Int(Int32.max))
        var bytes = [UInt8](repeating: 0, count: count)
        let status = unsafe bytes.withUnsafeMutableBufferPointer { unsafe RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else { throw .cryptoFailure }
        return bytes
    }
}
