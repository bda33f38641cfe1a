#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One live session of the caller, as listed by `GET /auth/sessions`:
/// `{"id", "createdAt", "lastUsedAt", "userAgent", "current"}`.
///
/// Dates travel as ISO 8601 strings in UTC with whole seconds, e.g. `"2026-11-22T03:20:10Z"`, whatever
/// `dateEncodingStrategy` the encoder has; decoding also accepts fractional seconds. Sub-second precision
/// is therefore lost on a round trip.
public struct SessionInfo: Codable, Sendable, Equatable {
    /// Session id, usable with `DELETE /auth/sessions/{id}`.
    public var id: String
    /// When the session was opened (login).
    public var createdAt: Date
    /// When its refresh token was last used.
    public var lastUsedAt: Date
    /// The `User-Agent` seen at login, or `nil`.
    public var userAgent: String?
    /// `true` for the session the request was made with.
    public var current: Bool

    /// Creates a session description.
    public init(id: String, createdAt: Date, lastUsedAt: Date, userAgent: String? = nil, current: Bool) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.current = current
    }

    private enum CodingKeys: String, CodingKey {
        case id, createdAt, lastUsedAt, userAgent, current
    }

    /// Decodes a session; dates must be ISO 8601 strings.
    /// - Throws: `DecodingError.dataCorrupted` for a date that is not ISO 8601.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        createdAt = try Self.decodeDate(container, .createdAt)
        lastUsedAt = try Self.decodeDate(container, .lastUsedAt)
        userAgent = try container.decodeIfPresent(String.self, forKey: .userAgent)
        current = try container.decode(Bool.self, forKey: .current)
    }

    /// Encodes a session with ISO 8601 UTC dates and `userAgent` as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(Self.iso8601String(createdAt), forKey: .createdAt)
        try container.encode(Self.iso8601String(lastUsedAt), forKey: .lastUsedAt)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encode(current, forKey: .current)
    }

    /// Formats a date the way the API sends it: ISO 8601, UTC, whole seconds.
    public static func iso8601String(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Parses an ISO 8601 date with or without fractional seconds; `nil` when it is not one.
    public static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    private static func decodeDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = parseISO8601(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "expected an ISO 8601 date"
            )
        }
        return date
    }
}
