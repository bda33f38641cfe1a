#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One passkey of the caller's account (`GET /auth/passkeys`, `POST /auth/passkeys/registration`, `PATCH
/// /auth/passkeys/{id}`): `{"id", "name", "createdAt", "lastUsedAt", "backedUp", "deviceType"}`.
///
/// Dates are ISO 8601 strings in UTC with whole seconds, as in ``SessionInfo``; `lastUsedAt` is `null` before the
/// passkey's first sign-in.
public struct PasskeyInfo: Codable, Sendable, Equatable {
    /// Whether the passkey can leave its device: WebAuthn's backup eligibility (flag BE).
    public enum DeviceType: String, Codable, Sendable, CaseIterable {
        /// Bound to one authenticator (BE clear).
        case singleDevice
        /// Synced between devices, e.g. by iCloud Keychain or Google Password Manager (BE set).
        case multiDevice
    }

    /// The credential id, base64url: the `{id}` of `PATCH` and `DELETE /auth/passkeys/{id}`.
    public var id: String
    /// The name the user gave it (or the server's default, "Passkey").
    public var name: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in, or `nil`.
    public var lastUsedAt: Date?
    /// Whether the authenticator says it is backed up now (flag BS at the last ceremony).
    public var backedUp: Bool
    /// Single-device or multi-device.
    public var deviceType: DeviceType

    /// Creates a description.
    public init(
        id: String, name: String, createdAt: Date, lastUsedAt: Date? = nil, backedUp: Bool, deviceType: DeviceType
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backedUp = backedUp
        self.deviceType = deviceType
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, createdAt, lastUsedAt, backedUp, deviceType
    }

    /// Decodes a passkey; dates must be ISO 8601 strings.
    /// - Throws: `DecodingError.dataCorrupted` for a date that is not ISO 8601.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        let created = try container.decode(String.self, forKey: .createdAt)
        guard let createdAt = SessionInfo.parseISO8601(created) else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt, in: container, debugDescription: "expected an ISO 8601 date")
        }
        self.createdAt = createdAt
        if let used = try container.decodeIfPresent(String.self, forKey: .lastUsedAt) {
            guard let date = SessionInfo.parseISO8601(used) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .lastUsedAt, in: container, debugDescription: "expected an ISO 8601 date")
            }
            lastUsedAt = date
        }
        backedUp = try container.decode(Bool.self, forKey: .backedUp)
        deviceType = try container.decode(DeviceType.self, forKey: .deviceType)
    }

    /// Encodes with ISO 8601 UTC dates and `lastUsedAt` as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(SessionInfo.iso8601String(createdAt), forKey: .createdAt)
        try container.encode(lastUsedAt.map(SessionInfo.iso8601String), forKey: .lastUsedAt)
        try container.encode(backedUp, forKey: .backedUp)
        try container.encode(deviceType, forKey: .deviceType)
    }
}
