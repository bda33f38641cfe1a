import Cryptography
import Foundation
import MailTesting
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// Deletion without the app (issue 33), end to end: a real server on port 0 whose outbox sender delivers the
/// `deletion` code to an SMTP sink; the JSON and form endpoints and the page at `GET /account/delete`, on SQLite,
/// and on PostgreSQL under `TOKENVEND_TEST_BACKEND=postgres` (Makefile: POSTGRES_END_TO_END).
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized)
struct AccountDeletionEmailTests {
    static let form = ["Content-Type": "application/x-www-form-urlencoded"]

    /// `application/x-www-form-urlencoded` of `pairs`.
    static func encoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    /// A code that is not `code` (same length).
    static func other(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test("the code flow with JSON bodies: 202 {}, a deletion code by mail, a wrong code refused, then deleted")
    func jsonCodeFlow() async throws {
        try await EmailHarness.run { mail in
            let user = try await mail.server.signUp(email: "json-del@example.com")
            let requested = try await mail.post("/auth/account/deletion", #"{"email":"JSON-del@example.com"}"#)
            #expect(requested.status == 202 && requested.text == "{}")
            let received = try await mail.nextMail()
            #expect(received.rcptTos == ["json-del@example.com"])
            #expect(received.subject?.contains("Delete your") == true)
            let code = try EmailHarness.code(in: received.text ?? "")
            let wrong = try await mail.post(
                "/auth/account/deletion/confirm", #"{"email":"json-del@example.com","code":"\#(Self.other(code))"}"#)
            #expect(wrong.status == 400 && wrong.errorCode == "invalid_code")
            #expect(try await mail.server.request("GET", "/auth/me", headers: user.bearer).status == 200)
            let deleted = try await mail.post(
                "/auth/account/deletion/confirm", #"{"email":"json-del@example.com","code":"\#(code)"}"#)
            #expect(deleted.status == 200 && deleted.text == #"{"deleted":true}"#)
            #expect(try await mail.server.request("GET", "/auth/me", headers: user.bearer).status == 401)
            let refresh = try await mail.server.refreshStatus(user.refreshToken)
            #expect(refresh.status == 401 && refresh.error == "invalid_grant")
            let again = try await mail.post(
                "/auth/account/deletion/confirm", #"{"email":"json-del@example.com","code":"\#(code)"}"#)
            #expect(again.errorCode == "invalid_code", "a code is single use")
            let records = try await mail.server.server.backend.users.deletedAccounts()
            #expect(records.map(\.method) == [.emailCode] && records.map(\.userID) == [user.userID])
            #expect(mail.server.server.metrics.accountDeletions.value(.emailCode) == 1)
            // The address is free again.
            _ = try await mail.server.signUp(email: "json-del@example.com")
        }
    }

    @Test("the code flow with form bodies, as a plain HTML form posts them")
    func formCodeFlow() async throws {
        try await EmailHarness.run { mail in
            let user = try await mail.server.signUp(email: "form-del@example.com")
            let requested = try await mail.server.request(
                "POST", "/auth/account/deletion", headers: Self.form,
                json: Self.encoded([("email", "form-del@example.com")]))
            #expect(requested.status == 202 && requested.text == "{}")
            let code = try await mail.nextCode(to: "form-del@example.com")
            let extra = try await mail.server.request(
                "POST", "/auth/account/deletion/confirm", headers: Self.form,
                json: Self.encoded([("email", "form-del@example.com"), ("code", code), ("x", "1")]))
            #expect(extra.status == 400 && extra.errorCode == "invalid_request")
            let deleted = try await mail.server.request(
                "POST", "/auth/account/deletion/confirm", headers: Self.form,
                json: Self.encoded([("email", "form-del@example.com"), ("code", code)]))
            #expect(deleted.status == 200 && deleted.text == #"{"deleted":true}"#)
            #expect(try await mail.server.request("GET", "/auth/me", headers: user.bearer).status == 401)
        }
    }

    @Test("a deletion request for an unknown or disabled address is the same 202 {} and sends nothing")
    func enumerationSafe() async throws {
        try await EmailHarness.run { mail in
            _ = try await mail.server.signUp(email: "known-del@example.com")
            _ = try await mail.server.signUp(email: "disabled-del@example.com")
            let accounts = try await AccountAdministration.open(configuration: mail.server.configuration)
            try await accounts.disable(account: "disabled-del@example.com")
            accounts.close()
            let unknown = try await mail.post("/auth/account/deletion", #"{"email":"nobody-del@example.com"}"#)
            let disabled = try await mail.post("/auth/account/deletion", #"{"email":"disabled-del@example.com"}"#)
            let known = try await mail.post("/auth/account/deletion", #"{"email":"known-del@example.com"}"#)
            for answer in [unknown, disabled, known] {
                #expect(answer.status == 202 && answer.body == known.body)
                #expect(answer.headers["cache-control"] == known.headers["cache-control"])
            }
            // Oldest first: a message to the unknown or disabled address would have arrived before this one.
            #expect(try await mail.nextMail().rcptTos == ["known-del@example.com"])
            let email = mail.server.server.backend.email
            for address in ["nobody-del@example.com", "disabled-del@example.com"] {
                let check = try await email.redeemCode(
                    purpose: .deletion, subject: address, hash: "00", maxAttempts: 5, now: Date())
                #expect(check == .rejected(attemptsLeft: 4), "a decoy row was written for \(address)")
            }
            let confirm = try await mail.post(
                "/auth/account/deletion/confirm", #"{"email":"nobody-del@example.com","code":"123456"}"#)
            #expect(confirm.status == 400 && confirm.errorCode == "invalid_code")
        }
    }

    @Test("the page: the address form, the code form, then deleted; strict headers; hostile input escaped")
    func pageFlow() async throws {
        try await EmailHarness.run { mail in
            let user = try await mail.server.signUp(email: "page-del@example.com")
            let page = try await mail.server.request("GET", "/account/delete")
            #expect(page.status == 200)
            Self.expectPageHeaders(page)
            #expect(page.text.contains(#"<form method="post" action="delete">"#))
            #expect(page.text.contains("<title>Delete your tokenvend account</title>"))
            #expect(!page.text.contains("<script"))

            let step2 = try await mail.server.request(
                "POST", "/account/delete", headers: Self.form, json: Self.encoded([("email", "page-del@example.com")]))
            #expect(step2.status == 200)
            Self.expectPageHeaders(step2)
            #expect(step2.text.contains(#"action="delete/confirm""#))
            #expect(step2.text.contains(#"<input type="hidden" name="email" value="page-del@example.com">"#))
            let code = try await mail.nextCode(to: "page-del@example.com")

            let wrong = try await mail.server.request(
                "POST", "/account/delete/confirm", headers: Self.form,
                json: Self.encoded([("email", "page-del@example.com"), ("code", Self.other(code))]))
            #expect(wrong.status == 400)
            #expect(wrong.text.contains(ServiceError.invalidCode.message))
            #expect(wrong.text.contains(#"action="confirm""#), "the code form again, posting to itself")
            let deleted = try await mail.server.request(
                "POST", "/account/delete/confirm", headers: Self.form,
                json: Self.encoded([("email", "page-del@example.com"), ("code", code)]))
            #expect(deleted.status == 200)
            Self.expectPageHeaders(deleted)
            #expect(deleted.text.contains("The account is deleted."))
            #expect(try await mail.server.request("GET", "/auth/me", headers: user.bearer).status == 401)

            let hostile = #""><script>alert(1)</script><b x='"#
            let refused = try await mail.server.request(
                "POST", "/account/delete", headers: Self.form, json: Self.encoded([("email", hostile)]))
            #expect(refused.status == 400)
            #expect(!refused.text.contains("<script>") && !refused.text.contains("<b x="))
            #expect(refused.text.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b x=&#39;"))
            #expect(refused.text.contains(ServiceError.invalidRequest("The email address is not valid.").message))
            let hostileCode = try await mail.server.request(
                "POST", "/account/delete/confirm", headers: Self.form,
                json: Self.encoded([("email", "a@example.com<i>"), ("code", "<i>")]))
            #expect(hostileCode.status == 400 && !hostileCode.text.contains("<i>"))
        }
    }

    /// The page's security headers.
    static func expectPageHeaders(_ response: TestResponse) {
        #expect(response.headers["content-type"] == "text/html; charset=utf-8")
        let policy = response.headers["content-security-policy"] ?? ""
        #expect(policy.hasPrefix("default-src 'none'; style-src 'sha256-"))
        #expect(policy.hasSuffix("form-action 'self'; frame-ancestors 'none'; base-uri 'none'"))
        #expect(response.headers["x-content-type-options"] == "nosniff")
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.headers["referrer-policy"] == "no-referrer")
    }

    @Test("an account made by an email sign-in code deletes itself with its recent session, no password")
    func passwordlessByCode() async throws {
        try await EmailHarness.run(environment: ["TOKENVEND_EMAIL_SIGN_IN_CODES": "true"]) { mail in
            #expect(try await mail.post("/auth/email/code", #"{"email":"code-del@example.com"}"#).status == 202)
            let code = try await mail.nextCode(to: "code-del@example.com")
            let signedIn = try await mail.post(
                "/auth/email/code/confirm", #"{"email":"code-del@example.com","code":"\#(code)"}"#)
            #expect(signedIn.status == 200)
            let access = try #require(try signedIn.object()["accessToken"] as? String)
            #expect(try AccountFlowTests.claims(access)["auth_time"] is Int)
            let deleted = try await mail.server.request(
                "DELETE", "/auth/account", headers: ["Authorization": "Bearer \(access)"])
            #expect(deleted.status == 200)
            let records = try await mail.server.server.backend.users.deletedAccounts()
            #expect(records.map(\.method) == [.selfService])
        }
    }
}

/// The deletion endpoints and the page while `email.transport` is `off`, through the routes.
@Suite(.timeLimit(.minutes(1)))
struct AccountDeletionEmailOffTests {
    @Test("with email off, the code endpoints answer 503 unavailable and the page says so; DELETE still works")
    func emailOff() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_EMAIL_TRANSPORT": "off"]) { server in
            for (path, json) in [
                ("/auth/account/deletion", #"{"email":"a@example.com"}"#),
                ("/auth/account/deletion/confirm", #"{"email":"a@example.com","code":"123456"}"#),
            ] {
                let answer = try await server.request("POST", path, json: json)
                #expect(answer.status == 503 && answer.errorCode == "unavailable", "\(path)")
            }
            let page = try await server.request("GET", "/account/delete")
            #expect(page.status == 503)
            #expect(page.text.contains("Email is not enabled on this server."))
            #expect(!page.text.contains("<form"))
            let user = try await server.signUp()
            let deleted = try await server.request(
                "DELETE", "/auth/account", headers: user.bearer, json: #"{"password":"\#(TestServer.password)"}"#)
            #expect(deleted.status == 200)
        }
    }

    @Test("the page escapes every character that could end a text or an attribute, and its style matches the hash")
    func escaping() throws {
        #expect(DeletionPage.escape(#"<a href='x'>&"#) == "&lt;a href=&#39;x&#39;&gt;&amp;")
        let page = DeletionPage(appName: "<Evil & Co>")
        let html = page.html(.code(email: #"x"@y"#), at: .confirm, error: "<b>")
        #expect(html.contains("<title>Delete your &lt;Evil &amp; Co&gt; account</title>"))
        #expect(html.contains(#"value="x&quot;@y""#) && html.contains("&lt;b&gt;"))
        #expect(html.contains(#"<a href="../delete">"#))
        let digest = try SHA256.hash(Array(DeletionPage.style.utf8))
        #expect(DeletionPage.contentSecurityPolicy.contains("'sha256-\(Data(digest).base64EncodedString())'"))
        #expect(html.contains("<style>\(DeletionPage.style)</style>"))
    }
}
