/// Every way the Cryptography module can refuse a key or fail.
///
/// No case carries key material or input bytes, so an error can be logged without leaking a secret.
public enum CryptographyError: Error, Sendable, Equatable, CaseIterable {
    /// A key is empty, or shorter than the hash output (e.g. < 64 bytes for HMAC-SHA512) without
    /// `allowShortKey`.
    case weakKey
    /// OpenSSL reported an internal failure: allocation, a provider error, or an unseeded random generator.
    case cryptoFailure
}

extension CryptographyError: CustomStringConvertible {
    /// A short English sentence naming the failure; never contains key material.
    public var description: String {
        switch self {
        case .weakKey: "HMAC key shorter than the hash output"
        case .cryptoFailure: "OpenSSL failure"
        }
    }
}
