internal import COpenSSL

/// Wiping secrets from memory, for every kind of key material (HMAC secrets, private scalars, seeds, PEM text).
public enum SecureMemory {
    /// Overwrites `bytes` with zeros in a way the optimizer cannot drop (`OPENSSL_cleanse`).
    public static func cleanse(_ bytes: inout [UInt8]) {
        unsafe bytes.withUnsafeMutableBytes { unsafe OPENSSL_cleanse($0.baseAddress, $0.count) }
    }
}

/// The calling thread's OpenSSL error queue (`ERR_*`), which every failure path of this module empties so a
/// later, unrelated OpenSSL call never reports a stale error.
package enum OpenSSLErrorQueue {
    /// Whether the calling thread's queue holds no error (`ERR_peek_error() == 0`).
    package static var isEmpty: Bool {
        ERR_peek_error() == 0
    }

    /// Empties the calling thread's queue (`ERR_clear_error`).
    package static func clear() {
        ERR_clear_error()
    }
}
