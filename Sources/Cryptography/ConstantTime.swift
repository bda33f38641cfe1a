internal import COpenSSL

/// Comparisons whose running time does not depend on where two secrets differ.
package enum ConstantTime {
    /// Whether `a` and `b` are equal, comparing every byte with `CRYPTO_memcmp`. Lengths are public.
    package static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return unsafe a.withUnsafeBytes { left in
            unsafe b.withUnsafeBytes { right in
                unsafe CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
