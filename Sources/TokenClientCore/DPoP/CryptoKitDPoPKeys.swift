#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    // Apple platforms only; NOT compiled in this repository's CI (Linux). Thin adapters over CryptoKit: everything
    // else (the proof, the stores, the session) is the portable code tested on Linux with `SoftwareDPoPKey`.

    #if !os(tvOS)  // no Secure Enclave key on tvOS: software keys there
        /// A P-256 ``DPoPKey`` inside the Secure Enclave: the private key never exists outside it. Its
        /// `dataRepresentation` (an encrypted blob only this device's Secure Enclave can use) is the material the
        /// ``DPoPKeyStore`` keeps, e.g. ``KeychainDPoPKeyStore``.
        public struct SecureEnclaveDPoPKey: DPoPKey {
            public let algorithm = DPoPAlgorithm.es256
            public let publicJWK: DPoPPublicJWK
            private let key: SecureEnclave.P256.Signing.PrivateKey

            /// Whether this device has a Secure Enclave.
            public static var isAvailable: Bool { SecureEnclave.isAvailable }

            /// A new key in the Secure Enclave.
            public init() throws {
                try self.init(key: SecureEnclave.P256.Signing.PrivateKey())
            }

            /// The key whose `dataRepresentation` `material` holds.
            public init(material: DPoPKeyMaterial) throws {
                try self.init(key: SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: material.data))
            }

            private init(key: SecureEnclave.P256.Signing.PrivateKey) throws {
                self.key = key
                publicJWK = try CryptoKitP256DPoPKey.jwk(x963: key.publicKey.x963Representation)
            }

            public func sign(_ message: [UInt8]) throws -> [UInt8] {
                Array(try key.signature(for: Data(message)).rawRepresentation)
            }

            public func material() throws -> DPoPKeyMaterial {
                DPoPKeyMaterial(kind: DPoPKeyKind.secureEnclaveP256Name, data: key.dataRepresentation)
            }
        }
    #endif

    /// A software P-256 ``DPoPKey`` (CryptoKit), for devices without a Secure Enclave (the simulator).
    public struct CryptoKitP256DPoPKey: DPoPKey {
        public let algorithm = DPoPAlgorithm.es256
        public let publicJWK: DPoPPublicJWK
        private let key: P256.Signing.PrivateKey

        /// A new random key.
        public init() throws {
            try self.init(key: P256.Signing.PrivateKey())
        }

        /// The key whose X9.63 representation `material` holds.
        public init(material: DPoPKeyMaterial) throws {
            try self.init(key: P256.Signing.PrivateKey(x963Representation: material.data))
        }

        private init(key: P256.Signing.PrivateKey) throws {
            self.key = key
            publicJWK = try Self.jwk(x963: key.publicKey.x963Representation)
        }

        public func sign(_ message: [UInt8]) throws -> [UInt8] {
            Array(try key.signature(for: Data(message)).rawRepresentation)
        }

        public func material() throws -> DPoPKeyMaterial {
            DPoPKeyMaterial(kind: DPoPKeyKind.p256Name, data: key.x963Representation)
        }

        /// The JWK of an uncompressed public point `04 ‖ x ‖ y`.
        static func jwk(x963: Data) throws -> DPoPPublicJWK {
            let bytes = [UInt8](x963)
            guard bytes.count == 65, bytes[0] == 0x04 else { throw TokenClientError.dpop("not a P-256 point") }
            return .p256(x: Array(bytes[1..<33]), y: Array(bytes[33..<65]))
        }
    }

    /// A software Ed25519 ``DPoPKey`` (CryptoKit's Curve25519).
    public struct CryptoKitEd25519DPoPKey: DPoPKey {
        public let algorithm = DPoPAlgorithm.edDSA
        public let publicJWK: DPoPPublicJWK
        private let key: Curve25519.Signing.PrivateKey

        /// A new random key.
        public init() {
            self.init(key: Curve25519.Signing.PrivateKey())
        }

        /// The key whose 32-byte seed `material` holds.
        public init(material: DPoPKeyMaterial) throws {
            self.init(key: try Curve25519.Signing.PrivateKey(rawRepresentation: material.data))
        }

        private init(key: Curve25519.Signing.PrivateKey) {
            self.key = key
            publicJWK = .ed25519(Array(key.publicKey.rawRepresentation))
        }

        public func sign(_ message: [UInt8]) throws -> [UInt8] {
            Array(try key.signature(for: Data(message)))
        }

        public func material() throws -> DPoPKeyMaterial {
            DPoPKeyMaterial(kind: DPoPKeyKind.ed25519Name, data: key.rawRepresentation)
        }
    }

    extension DPoPKeyKind {
        /// Software P-256 (`ES256`) keys (CryptoKit).
        public static let softwareP256 = DPoPKeyKind(
            name: p256Name, generate: { try CryptoKitP256DPoPKey() },
            restore: { try CryptoKitP256DPoPKey(material: $0) })
        /// Software Ed25519 (`EdDSA`) keys (CryptoKit).
        public static let softwareEd25519 = DPoPKeyKind(
            name: ed25519Name, generate: { CryptoKitEd25519DPoPKey() },
            restore: { try CryptoKitEd25519DPoPKey(material: $0) })
        #if !os(tvOS)
            /// P-256 keys in the Secure Enclave (their material is usable only on this device).
            public static let secureEnclaveP256 = DPoPKeyKind(
                name: secureEnclaveP256Name, generate: { try SecureEnclaveDPoPKey() },
                restore: { try SecureEnclaveDPoPKey(material: $0) })
            /// The Secure Enclave when the device has one, else software P-256 (the simulator).
            public static var preferred: DPoPKeyKind {
                SecureEnclaveDPoPKey.isAvailable ? secureEnclaveP256 : softwareP256
            }
        #else
            /// Software P-256.
            public static var preferred: DPoPKeyKind { softwareP256 }
        #endif
    }
#endif
