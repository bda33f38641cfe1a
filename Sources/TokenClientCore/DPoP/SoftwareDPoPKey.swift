#if canImport(Cryptography)
    internal import Cryptography

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// A software ``DPoPKey`` on the `Cryptography` module (Linux): P-256 signed by OpenSSL, Ed25519 by libsodium.
    ///
    /// The private key lives in this process's memory and in the ``DPoPKeyStore`` (the session file's `dpopKey`
    /// member for the command line, mode 0600). Material: P-256 as X9.63 `04 ‖ x ‖ y ‖ d` (97 bytes, what CryptoKit's
    /// `x963Representation` holds), Ed25519 as its 32-byte seed (CryptoKit's `rawRepresentation`).
    public struct SoftwareDPoPKey: DPoPKey {
        public let algorithm: DPoPAlgorithm
        public let publicJWK: DPoPPublicJWK
        private let key: AsymmetricKey

        /// A new random key for `algorithm`.
        /// - Throws: ``TokenClientError/dpop(_:)`` when OpenSSL fails.
        public static func generate(_ algorithm: DPoPAlgorithm) throws -> SoftwareDPoPKey {
            try SoftwareDPoPKey(wrapping: Self.converting { try AsymmetricKey.generate(Self.cryptography(algorithm)) })
        }

        /// The key in `material` (``DPoPKeyKind/softwareP256`` or ``DPoPKeyKind/softwareEd25519`` material).
        /// - Throws: ``TokenClientError/dpop(_:)`` for bytes that are not such a key.
        public init(material: DPoPKeyMaterial) throws {
            let bytes = [UInt8](material.data)
            switch material.kind {
            case DPoPKeyKind.p256Name:
                guard bytes.count == 97, bytes[0] == 0x04 else {
                    throw TokenClientError.dpop("P-256 key material is not 04 ‖ x ‖ y ‖ d")
                }
                let x = Array(bytes[1..<33])
                let y = Array(bytes[33..<65])
                let d = Array(bytes[65..<97])
                try self.init(wrapping: Self.converting { try AsymmetricKey(p256X: x, y: y, d: d) })
            case DPoPKeyKind.ed25519Name:
                guard bytes.count == 32 else { throw TokenClientError.dpop("Ed25519 key material is not a seed") }
                try self.init(wrapping: Self.converting { try AsymmetricKey(ed25519X: nil, d: bytes) })
            default:
                throw TokenClientError.dpop("not software key material: \(material.kind)")
            }
        }

        private init(wrapping key: AsymmetricKey) throws {
            self.key = key
            switch try Self.converting({ try key.publicComponents() }) {
            case .p256(let x, let y):
                algorithm = .es256
                publicJWK = .p256(x: x, y: y)
            case .ed25519(let x):
                algorithm = .edDSA
                publicJWK = .ed25519(x)
            case .rsa:
                throw TokenClientError.dpop("RSA keys do not sign DPoP proofs here")
            }
        }

        /// The signature of `message` (ES256: raw `R ‖ S`).
        public func sign(_ message: [UInt8]) throws -> [UInt8] {
            try Self.converting { try key.signature(for: message) }
        }

        /// X9.63 `04 ‖ x ‖ y ‖ d` for P-256, the seed for Ed25519.
        public func material() throws -> DPoPKeyMaterial {
            var scalar = try Self.converting { try key.privateScalar() }
            defer { for index in scalar.indices { scalar[index] = 0 } }
            switch try Self.converting({ try key.publicComponents() }) {
            case .p256(let x, let y):
                return DPoPKeyMaterial(kind: DPoPKeyKind.p256Name, data: Data([0x04] + x + y + scalar))
            default:
                return DPoPKeyMaterial(kind: DPoPKeyKind.ed25519Name, data: Data(scalar))
            }
        }

        private static func cryptography(_ algorithm: DPoPAlgorithm) -> AsymmetricKey.Algorithm {
            switch algorithm {
            case .es256: .ecdsaP256SHA256
            case .edDSA: .ed25519
            }
        }

        /// Runs `body`, turning its `CryptographyError` into ``TokenClientError/dpop(_:)``.
        private static func converting<T>(_ body: () throws -> T) throws(TokenClientError) -> T {
            do {
                return try body()
            } catch {
                throw .dpop("key operation failed: \(error)")
            }
        }
    }

    extension DPoPKeyKind {
        /// Software P-256 (`ES256`) keys on OpenSSL.
        public static let softwareP256 = DPoPKeyKind(
            name: p256Name, generate: { try SoftwareDPoPKey.generate(.es256) },
            restore: { try SoftwareDPoPKey(material: $0) })
        /// Software Ed25519 (`EdDSA`) keys on libsodium.
        public static let softwareEd25519 = DPoPKeyKind(
            name: ed25519Name, generate: { try SoftwareDPoPKey.generate(.edDSA) },
            restore: { try SoftwareDPoPKey(material: $0) })
        /// Software P-256: there is no Secure Enclave here.
        public static let preferred = softwareP256
    }
#endif

extension DPoPKeyKind {
    /// The kind name of software P-256 material.
    static let p256Name = "p256"
    /// The kind name of software Ed25519 material.
    static let ed25519Name = "ed25519"
    /// The kind name of Secure Enclave material.
    static let secureEnclaveP256Name = "secure-enclave-p256"
}
