import Foundation
import IdentityProvidersTesting
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// `POST /auth/apple/notifications` end to end: notifications signed by the fake Apple's RSA key (or forged),
/// verified with its JWKS, acting on accounts made by Apple sign-ins or linked by hand.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct AppleNotificationsEndToEndTests {
    /// Signs in a new Apple identity; its user id, subject and access token.
    static func appleUser(_ harness: AppleHarness) async throws -> (id: String, subject: String, access: String) {
        let subject = AppleHarness.subject()
        let response = try await harness.signIn(subject: subject, code: nil)
        #expect(response.status == 200)
        let body = try response.object()
        let id = try #require((body["user"] as? [String: Any])?["id"] as? String)
        return (id, subject, try #require(body["accessToken"] as? String))
    }

    static func me(_ harness: AppleHarness, _ access: String) async throws -> Int {
        try await harness.server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"]).status
    }

    @Test("consent-revoked ends every session of the user and keeps the identity linked")
    func consentRevoked() async throws {
        try await AppleHarness.run { harness in
            let user = try await Self.appleUser(harness)
            let response = try await harness.post(
                try await harness.notification(type: "consent-revoked", subject: user.subject))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "{}")
            #expect(try await Self.me(harness, user.access) == 401)
            let identities = try await harness.server.server.backend.identities.identities(userID: user.id)
            #expect(identities.count == 1)
            #expect(harness.server.server.metrics.apple.notifications(type: "consent-revoked", .applied) == 1)
        }
    }

    @Test("account-delete deletes an account Apple was the only way into")
    func accountDeleteDeletes() async throws {
        try await AppleHarness.run { harness in
            let user = try await Self.appleUser(harness)
            let response = try await harness.post(
                try await harness.notification(type: "account-delete", subject: user.subject, seconds: true))
            #expect(response.status == 200)
            #expect(try await harness.server.server.backend.users.find(byID: user.id) == nil)
            let records = try await harness.server.server.backend.users.deletedAccounts()
            #expect(records.contains { $0.userID == user.id && $0.method == .appleNotification })
            #expect(try await Self.me(harness, user.access) == 401)
        }
    }

    @Test("account-delete unlinks Apple from an account that has a password, which stays")
    func accountDeleteUnlinks() async throws {
        try await AppleHarness.run { harness in
            let login = try await harness.server.signUp()
            let subject = AppleHarness.subject()
            let identities = harness.server.server.backend.identities
            try await identities.link(
                provider: "apple", subject: subject, userID: login.userID, email: nil,
                now: Date().addingTimeInterval(-60))
            let response = try await harness.post(
                try await harness.notification(type: "account-delete", subject: subject))
            #expect(response.status == 200)
            #expect(try await harness.server.server.backend.users.find(byID: login.userID) != nil)
            #expect(try await identities.identities(userID: login.userID).isEmpty)
            #expect(try await Self.me(harness, login.accessToken) == 200)
        }
    }

    @Test("email-disabled and email-enabled record whether Apple's relay forwards")
    func emailForwarding() async throws {
        try await AppleHarness.run { harness in
            let user = try await Self.appleUser(harness)
            let identities = harness.server.server.backend.identities
            #expect(
                try await harness.post(harness.notification(type: "email-disabled", subject: user.subject)).status
                    == 200)
            #expect(try await identities.identities(userID: user.id).first?.emailForwarding == false)
            #expect(
                try await harness.post(harness.notification(type: "email-enabled", subject: user.subject)).status == 200
            )
            #expect(try await identities.identities(userID: user.id).first?.emailForwarding == true)
        }
    }

    @Test("a replayed notification answers 200 and is applied once")
    func replay() async throws {
        try await AppleHarness.run { harness in
            let user = try await Self.appleUser(harness)
            let body = try await harness.notification(type: "email-disabled", subject: user.subject)
            #expect(try await harness.post(body).status == 200)
            let identities = harness.server.server.backend.identities
            _ = try await identities.setEmailForwarding(provider: "apple", subject: user.subject, forwards: true)
            #expect(try await harness.post(body).status == 200)
            // Applied once: the replay did not record forwarding off again.
            #expect(try await identities.identities(userID: user.id).first?.emailForwarding == true)
            let metrics = harness.server.server.metrics.apple
            #expect(metrics.notifications(type: "email-disabled", .applied) == 1)
            #expect(metrics.notifications(type: "email-disabled", .replayed) == 1)
        }
    }

    @Test("forged, expired, wrong-audience and malformed notifications are 400 invalid_request and change nothing")
    func refused() async throws {
        try await AppleHarness.run { harness in
            let user = try await Self.appleUser(harness)
            let bodies = [
                try await harness.notification(type: "account-delete", subject: user.subject, forged: true),
                try await harness.notification(type: "account-delete", subject: user.subject, expiresIn: -3_600),
                try await harness.notification(type: "account-delete", subject: user.subject, audience: "com.other"),
                #"{"payload":"not.a.jws"}"#, #"{"payload":42}"#, "[]", #"{"payload":"x","extra":1}"#,
            ]
            for body in bodies {
                let response = try await harness.post(body)
                #expect(response.status == 400, "\(body.prefix(60))")
                #expect(response.errorCode == "invalid_request")
            }
            #expect(try await harness.server.server.backend.users.find(byID: user.id) != nil)
            #expect(try await Self.me(harness, user.access) == 200)
            #expect(
                harness.server.server.metrics.apple.notifications(type: "invalid", .rejected) == Double(bodies.count))
        }
    }

    @Test("an unknown subject, and an event older than the identity's link, answer 200 and do nothing")
    func ignored() async throws {
        try await AppleHarness.run { harness in
            let unknown = try await harness.post(
                try await harness.notification(type: "account-delete", subject: AppleHarness.subject()))
            #expect(unknown.status == 200)
            let user = try await Self.appleUser(harness)
            let stale = try await harness.post(
                try await harness.notification(
                    type: "account-delete", subject: user.subject, eventTime: Date().addingTimeInterval(-3_600)))
            #expect(stale.status == 200)
            #expect(try await harness.server.server.backend.users.find(byID: user.id) != nil)
            let metrics = harness.server.server.metrics.apple
            #expect(metrics.notifications(type: "account-delete", .unknownSubject) == 1)
            #expect(metrics.notifications(type: "account-delete", .stale) == 1)
        }
    }

    @Test("a verified event of a type tokenvend does not know answers 200, changes nothing, and counts as other")
    func unknownType() async throws {
        try await AppleHarness.run { harness in
            let user = try await Self.appleUser(harness)
            let answer = try await harness.post(
                try await harness.notification(type: "account-frozen", subject: user.subject))
            #expect(answer.status == 200)
            #expect(try await harness.server.server.backend.users.find(byID: user.id) != nil)
            #expect(harness.server.server.metrics.apple.notifications(type: "other", .ignored) == 1)
        }
    }
}
