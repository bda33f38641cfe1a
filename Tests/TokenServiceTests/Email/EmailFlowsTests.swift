import Foundation
import MailTesting
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// The email flows end to end: a real server on port 0 delivering through its outbox sender to an SMTP sink,
/// on SQLite, and on PostgreSQL under `TOKENVEND_TEST_BACKEND=postgres` (Makefile: POSTGRES_END_TO_END).
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized)
struct EmailFlowsTests {
    @Test(
        "verification: a code to the account's email proves it; the access token asserts it only from then on"
    )
    func verification() async throws {
        try await EmailHarness.run { mail in
            let login = try await mail.server.signUp(email: "ada@example.com")
            let me = try await mail.server.request("GET", "/auth/me", headers: login.bearer)
            #expect(try me.object()["emailVerified"] as? Bool == false)
            #expect(try AccountFlowTests.claims(login.accessToken)["email"] == nil)

            let requested = try await mail.post("/auth/email/verification", headers: login.bearer)
            #expect(requested.status == 202)
            #expect(requested.text == "{}")
            let received = try await mail.nextMail()
            #expect(received.rcptTos == ["ada@example.com"])
            let code = try EmailHarness.code(in: received.text ?? "")

            let wrong = try await mail.post(
                "/auth/email/verification/confirm", #"{"code":"\#(Self.other(code))"}"#,
                headers: login.bearer)
            #expect(wrong.status == 400)
            #expect(wrong.errorCode == "invalid_code")
            let confirmed = try await mail.post(
                "/auth/email/verification/confirm", #"{"code":"\#(code)"}"#, headers: login.bearer)
            #expect(confirmed.status == 200)
            let user = try #require(try confirmed.object()["user"] as? [String: Any])
            #expect(user["emailVerified"] as? Bool == true)
            #expect(user["email"] as? String == "ada@example.com")
            let again = try await mail.post(
                "/auth/email/verification/confirm", #"{"code":"\#(code)"}"#, headers: login.bearer)
            #expect(again.errorCode == "invalid_code", "a code is single use")

            // Tokens issued after the verification carry the email.
            let refreshed = try await mail.post(
                "/auth/refresh", #"{"refreshToken":"\#(login.refreshToken)"}"#)
            let access = try #require(try refreshed.object()["accessToken"] as? String)
            let claims = try AccountFlowTests.claims(access)
            #expect(claims["email"] as? String == "ada@example.com")
            #expect(claims["email_verified"] as? Bool == true)
            let meAfter = try await mail.server.request(
                "GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(try meAfter.object()["emailVerified"] as? Bool == true)

            // An already verified email: 202 and no mail (the next message is another account's reset).
            let verifiedAlready = try await mail.post(
                "/auth/email/verification", headers: ["Authorization": "Bearer \(access)"])
            #expect(verifiedAlready.status == 202)
            _ = try await mail.server.signUp(email: "bob@example.com")
            #expect(try await mail.post("/auth/password/reset", #"{"email":"bob@example.com"}"#).status == 202)
            let next = try await mail.nextMail()
            #expect(next.rcptTos == ["bob@example.com"])
            let code2 = try EmailHarness.code(in: next.text ?? "")
            #expect(try await Self.resetConfirm(mail, "bob@example.com", code2) == 200)
        }
    }

    @Test(
        "a reset of an unknown or disabled address answers byte for byte like a known one, and sends nothing"
    )
    func resetIsEnumerationSafe() async throws {
        try await EmailHarness.run { mail in
            _ = try await mail.server.signUp(email: "known@example.com")
            _ = try await mail.server.signUp(email: "disabled@example.com")
            let accounts = try await AccountAdministration.open(configuration: mail.server.configuration)
            try await accounts.disable(account: "disabled@example.com")
            accounts.close()

            let unknown = try await mail.post("/auth/password/reset", #"{"email":"nobody@example.com"}"#)
            let disabled = try await mail.post(
                "/auth/password/reset", #"{"email":"disabled@example.com"}"#)
            let known = try await mail.post("/auth/password/reset", #"{"email":"known@example.com"}"#)
            for answer in [unknown, disabled, known] {
                #expect(answer.status == 202)
                #expect(answer.body == known.body)
                #expect(Self.comparable(answer.headers) == Self.comparable(known.headers))
            }
            #expect(known.text == "{}")
            // The sender delivers oldest first: had the unknown or disabled address been sent anything, it would
            // arrive before the known one's.
            let first = try await mail.nextMail()
            #expect(first.rcptTos == ["known@example.com"])
            // The unknown and disabled addresses cost the same durable write as the known one: a decoy code that no
            // presented code matches (a try counts against it, as against a real one) and no queued message.
            let email = mail.server.server.backend.email
            for address in ["nobody@example.com", "disabled@example.com"] {
                let check = try await email.redeemCode(
                    purpose: .passwordReset, subject: address, hash: "00", maxAttempts: 5, now: Date())
                #expect(check == .rejected(attemptsLeft: 4))
            }
            // (The known address's row may still be there: the sender deletes it just after the sink has it.)
            #expect(try await email.listOutbox().allSatisfy { $0.recipient == "known@example.com" })
        }
    }

    @Test(
        "a reset sets the password, revokes every old session, verifies the email and answers the login body"
    )
    func resetConfirm() async throws {
        try await EmailHarness.run { mail in
            let old = try await mail.server.signUp(email: "grace@example.com")
            #expect(
                try await mail.post("/auth/password/reset", #"{"email":"grace@example.com"}"#).status == 202
            )
            let code = try await mail.nextCode(to: "grace@example.com")

            let weak = try await mail.post(
                "/auth/password/reset/confirm",
                #"{"email":"grace@example.com","code":"\#(code)","newPassword":"1qaz2wsx3edc"}"#)
            #expect(weak.status == 400)
            #expect(weak.errorCode == "weak_password")
            let confirmed = try await mail.post(
                "/auth/password/reset/confirm",
                #"{"email":"Grace@Example.com","code":"\#(code)","newPassword":"a brand new secret"}"#)
            #expect(confirmed.status == 200)
            #expect(confirmed.headers["cache-control"] == "no-store")
            let body = try confirmed.object()
            #expect(body["accessToken"] is String)
            #expect(body["refreshToken"] is String)
            #expect((body["user"] as? [String: Any])?["emailVerified"] as? Bool == true)

            let oldRefresh = try await mail.post(
                "/auth/refresh", #"{"refreshToken":"\#(old.refreshToken)"}"#)
            #expect(oldRefresh.status == 401)
            #expect(oldRefresh.errorCode == "invalid_grant")
            let oldMe = try await mail.server.request("GET", "/auth/me", headers: old.bearer)
            #expect(oldMe.status == 401)
            let newRefresh = try #require(body["refreshToken"] as? String)
            #expect(
                try await mail.post("/auth/refresh", #"{"refreshToken":"\#(newRefresh)"}"#).status == 200)

            let oldPassword = try await mail.post(
                "/auth/login", #"{"email":"grace@example.com","password":"\#(TestServer.password)"}"#)
            #expect(oldPassword.status == 401)
            let newPassword = try await mail.post(
                "/auth/login", #"{"email":"grace@example.com","password":"a brand new secret"}"#)
            #expect(newPassword.status == 200)
            #expect(!mail.server.logs().contains(code), "the code is never logged")
            let reused = try await mail.post(
                "/auth/password/reset/confirm",
                #"{"email":"grace@example.com","code":"\#(code)","newPassword":"another new secret"}"#)
            #expect(reused.errorCode == "invalid_code")
        }
    }

    @Test("the reset confirmation honours X-Auth-Strategy: cookie, as login does")
    func resetConfirmCookieMode() async throws {
        try await EmailHarness.run { mail in
            _ = try await mail.server.signUp(email: "cookie@example.com")
            _ = try await mail.post("/auth/password/reset", #"{"email":"cookie@example.com"}"#)
            let code = try await mail.nextCode(to: "cookie@example.com")
            let confirmed = try await mail.post(
                "/auth/password/reset/confirm",
                #"{"email":"cookie@example.com","code":"\#(code)","newPassword":"cookie jar secret"}"#,
                headers: ["X-Auth-Strategy": "cookie"])
            #expect(confirmed.status == 200)
            #expect(confirmed.headers["set-cookie"]?.contains("__Host-access_token=") == true)
            let body = try confirmed.object()
            #expect(body["accessToken"] == nil)
            #expect(body["refreshToken"] == nil)
        }
    }

    @Test("five wrong codes kill a code: the right one is refused after them")
    func fiveWrongCodesKill() async throws {
        try await EmailHarness.run { mail in
            _ = try await mail.server.signUp(email: "eve@example.com")
            _ = try await mail.post("/auth/password/reset", #"{"email":"eve@example.com"}"#)
            let code = try await mail.nextCode(to: "eve@example.com")
            for _ in 0..<5 {
                let wrong = try await mail.post(
                    "/auth/password/reset/confirm",
                    #"{"email":"eve@example.com","code":"\#(Self.other(code))","newPassword":"guess guess guess"}"#
                )
                #expect(wrong.status == 400)
                #expect(wrong.errorCode == "invalid_code")
            }
            let right = try await mail.post(
                "/auth/password/reset/confirm",
                #"{"email":"eve@example.com","code":"\#(code)","newPassword":"guess guess guess"}"#)
            #expect(right.status == 400)
            #expect(right.errorCode == "invalid_code")
            let metrics = mail.server.server.metrics.email
            #expect(metrics.codeValue(.passwordReset, .rejected) == 4)
            #expect(metrics.codeValue(.passwordReset, .killed) == 1)
            #expect(metrics.codeValue(.passwordReset, .missing) == 1)
            // Wrong codes are not failed logins: the password still logs in.
            #expect(try await mail.server.logIn(email: "eve@example.com").userID.isEmpty == false)
        }
    }

    @Test(
        "a password change keeps the caller's session and revokes the others; a wrong password is a failed login"
    )
    func passwordChange() async throws {
        try await EmailHarness.run { mail in
            let caller = try await mail.server.signUp(email: "linus@example.com")
            let other = try await mail.server.logIn(email: "linus@example.com")
            let wrong = try await mail.post(
                "/auth/password/change",
                #"{"currentPassword":"not it at all","newPassword":"changed and long"}"#,
                headers: caller.bearer)
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(mail.server.server.metrics.logins.value(.failed) == 1)
            let weak = try await mail.post(
                "/auth/password/change",
                #"{"currentPassword":"\#(TestServer.password)","newPassword":"1qaz2wsx3edc"}"#,
                headers: caller.bearer)
            #expect(weak.errorCode == "weak_password")
            let changed = try await mail.post(
                "/auth/password/change",
                #"{"currentPassword":"\#(TestServer.password)","newPassword":"changed and long"}"#,
                headers: caller.bearer)
            #expect(changed.status == 200)
            #expect(changed.text == "{}")
            #expect(
                try await mail.server.request("GET", "/auth/me", headers: caller.bearer).status == 200)
            #expect(
                try await mail.post("/auth/refresh", #"{"refreshToken":"\#(caller.refreshToken)"}"#).status
                    == 200)
            #expect(
                try await mail.post("/auth/refresh", #"{"refreshToken":"\#(other.refreshToken)"}"#).status
                    == 401)
            let login = try await mail.post(
                "/auth/login", #"{"email":"linus@example.com","password":"changed and long"}"#)
            #expect(login.status == 200)
        }
    }

    @Test("sign-in codes are 404 unless enabled")
    func signInCodesDisabled() async throws {
        try await EmailHarness.run { mail in
            let request = try await mail.post("/auth/email/code", #"{"email":"a@example.com"}"#)
            #expect(request.status == 404)
            let confirm = try await mail.post(
                "/auth/email/code/confirm", #"{"email":"a@example.com","code":"123456"}"#)
            #expect(confirm.status == 404)
        }
    }

    @Test(
        "a sign-in code signs up a password-less account, then signs it in; the email counts as verified"
    )
    func signInCodes() async throws {
        try await EmailHarness.run(environment: ["TOKENVEND_EMAIL_SIGN_IN_CODES": "true"]) { mail in
            #expect(
                try await mail.post("/auth/email/code", #"{"email":"New@Example.com"}"#).status == 202)
            let code = try await mail.nextCode(to: "new@example.com")
            let created = try await mail.post(
                "/auth/email/code/confirm", #"{"email":"new@example.com","code":"\#(code)"}"#)
            #expect(created.status == 200)
            let body = try created.object()
            #expect(body["created"] as? Bool == true)
            #expect((body["user"] as? [String: Any])?["emailVerified"] as? Bool == true)
            let claims = try AccountFlowTests.claims(try #require(body["accessToken"] as? String))
            #expect(claims["email"] as? String == "new@example.com")

            #expect(
                try await mail.post("/auth/email/code", #"{"email":"new@example.com"}"#).status == 202)
            // One per minute per address: the second request is answered alike, and sends nothing.
            _ = try await mail.post("/auth/password/reset", #"{"email":"other@example.com"}"#)
            let second = try await mail.post("/auth/email/code", #"{"email":"second@example.com"}"#)
            #expect(second.status == 202)
            let code2 = try await mail.nextCode(to: "second@example.com")
            let signedIn = try await mail.post(
                "/auth/email/code/confirm", #"{"email":"second@example.com","code":"\#(code2)"}"#)
            #expect(try signedIn.object()["created"] as? Bool == true)
            // A password-less account cannot log in with a password.
            let login = try await mail.post(
                "/auth/login", #"{"email":"new@example.com","password":"anything at all"}"#)
            #expect(login.status == 401)
        }
    }

    @Test(
        "a sign-in code for an unknown address while registration is closed answers 403 registration_closed"
    )
    func signInCodeRegistrationClosed() async throws {
        try await EmailHarness.run(environment: [
            "TOKENVEND_EMAIL_SIGN_IN_CODES": "true", "TOKENVEND_REGISTRATION_ENABLED": "false",
            "TOKENVEND_EMAIL_CODE_LENGTH": "8",
        ]) { mail in
            #expect(
                try await mail.post("/auth/email/code", #"{"email":"late@example.com"}"#).status == 202)
            let code = try await mail.nextCode(to: "late@example.com", length: 8)
            let refused = try await mail.post(
                "/auth/email/code/confirm", #"{"email":"late@example.com","code":"\#(code)"}"#)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "registration_closed")
        }
    }

    @Test(
        "an email change sends a code to the new address, moves the account, and notifies the old address"
    )
    func emailChange() async throws {
        try await EmailHarness.run { mail in
            let login = try await mail.server.signUp(email: "old@example.com")
            _ = try await mail.server.signUp(email: "taken@example.com")
            let taken = try await mail.post(
                "/auth/email/change",
                #"{"newEmail":"taken@example.com","currentPassword":"\#(TestServer.password)"}"#,
                headers: login.bearer)
            #expect(taken.status == 409)
            #expect(taken.errorCode == "email_taken")
            let missing = try await mail.post(
                "/auth/email/change", #"{"newEmail":"new@example.com"}"#, headers: login.bearer)
            #expect(missing.status == 400)
            let wrong = try await mail.post(
                "/auth/email/change",
                #"{"newEmail":"new@example.com","currentPassword":"not the password"}"#,
                headers: login.bearer)
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "invalid_credentials")

            let requested = try await mail.post(
                "/auth/email/change",
                #"{"newEmail":"New@Example.com","currentPassword":"\#(TestServer.password)"}"#,
                headers: login.bearer)
            #expect(requested.status == 202)
            let code = try await mail.nextCode(to: "new@example.com")
            let confirmed = try await mail.post(
                "/auth/email/change/confirm", #"{"code":"\#(code)"}"#, headers: login.bearer)
            #expect(confirmed.status == 200)
            let user = try #require(try confirmed.object()["user"] as? [String: Any])
            #expect(user["email"] as? String == "new@example.com")
            #expect(user["emailVerified"] as? Bool == true)
            let notice = try await mail.nextMail()
            #expect(notice.rcptTos == ["old@example.com"])
            #expect(
                try await mail.post(
                    "/auth/login", #"{"email":"new@example.com","password":"\#(TestServer.password)"}"#
                ).status == 200)
            #expect(
                try await mail.post(
                    "/auth/login", #"{"email":"old@example.com","password":"\#(TestServer.password)"}"#
                ).status == 401)
        }
    }

    @Test(
        "per-address limits: the reset answers 202 with no mail, an authenticated request 429 with Retry-After"
    )
    func perAddressLimits() async throws {
        try await EmailHarness.run { mail in
            let login = try await mail.server.signUp(email: "busy@example.com")
            #expect(try await mail.post("/auth/email/verification", headers: login.bearer).status == 202)
            let limited = try await mail.post("/auth/email/verification", headers: login.bearer)
            #expect(limited.status == 429)
            #expect(limited.errorCode == "too_many_requests")
            let retryAfter = try #require(limited.headers["retry-after"].flatMap { Int($0) })
            #expect(retryAfter >= 1 && retryAfter <= 60)
            _ = try await mail.nextCode(to: "busy@example.com")

            // The reset of that address (known) and of an unknown one: counted alike, answered alike.
            _ = try await mail.server.signUp(email: "reset@example.com")
            let first = try await mail.post("/auth/password/reset", #"{"email":"reset@example.com"}"#)
            let second = try await mail.post("/auth/password/reset", #"{"email":"reset@example.com"}"#)
            #expect(first.status == 202)
            #expect(second.status == 202)
            #expect(second.body == first.body)
            _ = try await mail.nextCode(to: "reset@example.com")
            // Had the limited one been sent, it would come before this one.
            _ = try await mail.server.signUp(email: "third@example.com")
            _ = try await mail.post("/auth/password/reset", #"{"email":"third@example.com"}"#)
            _ = try await mail.nextCode(to: "third@example.com")
            // The busy address had its one message this minute: its reset is limited too, and answered alike.
            let busyReset = try await mail.post("/auth/password/reset", #"{"email":"busy@example.com"}"#)
            #expect(busyReset.status == 202)
            #expect(busyReset.body == first.body)
            #expect(mail.server.server.metrics.email.codeValue(.passwordReset, .limited) == 2)
            #expect(mail.server.server.metrics.email.codeValue(.verification, .limited) == 1)
        }
    }

    @Test("with email.transport off every email endpoint answers 503 unavailable")
    func transportOff() async throws {
        try await withTestServer(environment: [
            "TOKENVEND_EMAIL_TRANSPORT": "off", "TOKENVEND_EMAIL_SIGN_IN_CODES": "true",
        ]) { server in
            let login = try await server.signUp(email: "off@example.com")
            let paths = [
                ("/auth/email/verification", nil),
                ("/auth/email/verification/confirm", #"{"code":"123456"}"#),
                ("/auth/password/reset", #"{"email":"off@example.com"}"#),
                (
                    "/auth/password/reset/confirm",
                    #"{"email":"off@example.com","code":"123456","newPassword":"x"}"#
                ),
                ("/auth/email/code", #"{"email":"off@example.com"}"#),
                ("/auth/email/code/confirm", #"{"email":"off@example.com","code":"123456"}"#),
                ("/auth/email/change", #"{"newEmail":"n@example.com"}"#),
                ("/auth/email/change/confirm", #"{"code":"123456"}"#),
            ]
            for (path, json) in paths {
                let answer = try await server.request("POST", path, headers: login.bearer, json: json)
                #expect(answer.status == 503, "\(path)")
                #expect(answer.errorCode == "unavailable", "\(path)")
                #expect(answer.headers["retry-after"] != nil, "\(path)")
            }
        }
    }

    /// A code of the same length that is not `code`.
    static func other(_ code: String) -> String {
        String(code.map { $0 == "0" ? "1" : "0" })
    }

    /// The headers that must match between two answers: all but `Date` and the request id.
    static func comparable(_ headers: [String: String]) -> [String: String] {
        headers.filter { $0.key != "date" && $0.key != "x-request-id" }
    }

    /// Confirms a reset; returns the status.
    static func resetConfirm(_ mail: EmailHarness, _ email: String, _ code: String) async throws
        -> Int
    {
        try await mail.post(
            "/auth/password/reset/confirm",
            #"{"email":"\#(email)","code":"\#(code)","newPassword":"fresh new password"}"#
        ).status
    }
}
