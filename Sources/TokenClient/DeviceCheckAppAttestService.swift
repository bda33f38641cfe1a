#if canImport(DeviceCheck)
    import DeviceCheck
    import Foundation
    public import TokenClientCore

    /// DeviceCheck's `DCAppAttestService.shared` as an ``AppAttestService``, for
    /// `AppAttestIntegrityProvider(service: DeviceCheckAppAttestService(), keyStore: KeychainAppAttestKeyStore())`.
    /// `DCError.invalidKey` becomes ``AppAttestServiceError/invalidKey`` (the provider then attests a new key).
    @available(iOS 14.0, macOS 11.0, tvOS 15.0, watchOS 9.0, *)
    public struct DeviceCheckAppAttestService: AppAttestService {
        /// Creates the adapter.
        public init() {}

        /// `DCAppAttestService.shared.isSupported`.
        public var isSupported: Bool { DCAppAttestService.shared.isSupported }

        /// `DCAppAttestService.shared.generateKey()`.
        public func generateKey() async throws -> String {
            try await Self.mapped { try await DCAppAttestService.shared.generateKey() }
        }

        /// `DCAppAttestService.shared.attestKey(_:clientDataHash:)`.
        public func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
            try await Self.mapped {
                [UInt8](try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: Data(clientDataHash)))
            }
        }

        /// `DCAppAttestService.shared.generateAssertion(_:clientDataHash:)`.
        public func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
            try await Self.mapped {
                [UInt8](
                    try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: Data(clientDataHash)))
            }
        }

        private static func mapped<T>(_ body: () async throws -> T) async throws -> T {
            do {
                return try await body()
            } catch let error as DCError where error.code == .invalidKey {
                throw AppAttestServiceError.invalidKey
            }
        }
    }
#endif
