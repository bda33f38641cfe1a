import JWT
import StrictJSON

/// The event of a verified Sign in with Apple server-to-server notification: its `jti`, `exp` and the `events`
/// claim (a JSON string) read as `type`, `sub` and `event_time` (milliseconds since 1970, as Apple sends it;
/// seconds are accepted too: a value below 10¹¹ is taken as seconds).
struct AppleNotification: Sendable, Equatable {
    let jti: String
    /// The notification's `exp`, in seconds.
    let expiresAt: Int64
    /// `consent-revoked`, `account-delete`, `email-disabled`, `email-enabled` (or another Apple adds later).
    let type: String
    /// The Apple user the event concerns (an ID token's `sub`).
    let subject: String
    /// When the event happened, in milliseconds since 1970.
    let eventTimeMilliseconds: Int64

    /// The event of `claims`, or nil when a member is missing or of the wrong type.
    init?(claims: JWTClaims) {
        guard let jti = claims.id, !jti.isEmpty, let expiresAt = claims.expiration,
            case .string(let events)? = claims["events"],
            case .object(let event)? = try? JSONValue.parse(Array(events.utf8)),
            case .string(let type)? = event["type"], !type.isEmpty,
            case .string(let subject)? = event["sub"], !subject.isEmpty,
            let time = Self.integer(event["event_time"]), time > 0
        else { return nil }
        self.jti = jti
        self.expiresAt = expiresAt
        self.type = type
        self.subject = subject
        eventTimeMilliseconds = time < 100_000_000_000 ? time * 1_000 : time
    }

    /// An integer, or a string of digits (some senders quote numbers).
    private static func integer(_ value: JSONValue?) -> Int64? {
        switch value {
        case .integer(let number)?: number
        case .string(let text)?: Int64(text)
        default: nil
        }
    }
}
