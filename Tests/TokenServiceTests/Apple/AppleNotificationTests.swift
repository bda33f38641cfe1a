import JWT
import StrictJSON
import Testing

@testable import TokenService

/// The `events` claim of Apple's notifications, read from claims (no signature involved here).
@Suite struct AppleNotificationTests {
    static func claims(events: String, jti: String? = "j-1") -> JWTClaims {
        var object: JSONObject = ["iss": "https://appleid.apple.com", "exp": .integer(1_800_000_000)]
        if let jti { object["jti"] = .string(jti) }
        object["events"] = .string(events)
        return JWTClaims(object)
    }

    @Test("event_time in milliseconds and in seconds give the same instant")
    func eventTime() throws {
        let milliseconds = try #require(
            AppleNotification(
                claims: Self.claims(events: #"{"type":"consent-revoked","sub":"s1","event_time":1800000000123}"#)))
        #expect(milliseconds.eventTimeMilliseconds == 1_800_000_000_123)
        #expect(milliseconds.type == "consent-revoked")
        #expect(milliseconds.subject == "s1")
        #expect(milliseconds.jti == "j-1")
        #expect(milliseconds.expiresAt == 1_800_000_000)
        let seconds = try #require(
            AppleNotification(
                claims: Self.claims(events: #"{"type":"email-enabled","sub":"s1","event_time":1800000000}"#)))
        #expect(seconds.eventTimeMilliseconds == 1_800_000_000_000)
    }

    @Test(
        "a notification without jti, or with events that are not a JSON object of type, sub and event_time, is refused")
    func refused() {
        let broken = [
            Self.claims(events: #"{"type":"account-delete","sub":"s","event_time":1}"#, jti: nil),
            Self.claims(events: "not json"),
            Self.claims(events: #"[{"type":"account-delete"}]"#),
            Self.claims(events: #"{"sub":"s","event_time":1800000000}"#),
            Self.claims(events: #"{"type":"account-delete","event_time":1800000000}"#),
            Self.claims(events: #"{"type":"account-delete","sub":"s"}"#),
            Self.claims(events: #"{"type":"account-delete","sub":"s","event_time":-5}"#),
        ]
        for claims in broken { #expect(AppleNotification(claims: claims) == nil) }
    }
}
