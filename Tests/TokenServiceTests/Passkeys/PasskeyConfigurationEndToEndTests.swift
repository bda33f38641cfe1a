import Foundation
import Testing
import TokenServiceTesting

/// What the `passkeys.*` settings turn on and off, end to end: the association files (exact bodies, headers, 404
/// when unset), every passkey route answering 404 without `passkeys.rpId`, sign-up closed with registration, and
/// the per-address limit on ceremony calls.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct PasskeyConfigurationEndToEndTests {
    static let passkeyRoutes: [(String, String)] = [
        ("POST", "/auth/passkeys/registration/options"), ("POST", "/auth/passkeys/registration"),
        ("POST", "/auth/passkeys/signup/options"), ("POST", "/auth/passkeys/signup"),
        ("POST", "/auth/passkeys/authentication/options"), ("POST", "/auth/passkeys/authentication"),
        ("GET", "/auth/passkeys"), ("PATCH", "/auth/passkeys/AAAA"), ("DELETE", "/auth/passkeys/AAAA"),
        ("GET", "/.well-known/apple-app-site-association"), ("GET", "/.well-known/assetlinks.json"),
    ]

    @Test("the association files: exact bodies, application/json, an hour's public cache, no redirect")
    func associationFiles() async throws {
        let second = "12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0"
        let apps =
            #"[{"package":"\#(PasskeyHarness.androidPackage)","sha256CertFingerprints":["\#(PasskeyHarness.androidFingerprint)","\#(second)"]},"#
            + #"{"package":"com.example.other","sha256CertFingerprints":["\#(second)"]}]"#
        let environment = PasskeyHarness.baseEnvironment.merging([
            "TOKENVEND_PASSKEYS_APPLE_APP_IDS": #"["ABCDE12345.com.example.app","ABCDE12345.com.example.other"]"#,
            "TOKENVEND_PASSKEYS_ANDROID_APPS": apps,
        ]) { $1 }
        try await withTestServer(environment: environment) { server in
            let apple = try await server.request("GET", "/.well-known/apple-app-site-association")
            #expect(apple.status == 200)
            #expect(
                apple.text
                    == #"{"webcredentials":{"apps":["ABCDE12345.com.example.app","ABCDE12345.com.example.other"]}}"#)
            let android = try await server.request("GET", "/.well-known/assetlinks.json")
            #expect(android.status == 200)
            let relation = #""relation":["delegate_permission/common.get_login_creds"]"#
            #expect(
                android.text
                    == "[{\(relation),\"target\":{\"namespace\":\"android_app\",\"package_name\":\"com.example.app\","
                    + "\"sha256_cert_fingerprints\":[\"\(PasskeyHarness.androidFingerprint)\",\"\(second)\"]}},"
                    + "{\(relation),\"target\":{\"namespace\":\"android_app\",\"package_name\":\"com.example.other\","
                    + "\"sha256_cert_fingerprints\":[\"\(second)\"]}}]")
            for answer in [apple, android] {
                #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
                #expect(answer.headers["cache-control"] == "public, max-age=3600")
                #expect(answer.headers["location"] == nil)
            }
            // The second app's fingerprint is an accepted origin too.
            let authenticator = try await PasskeyAuthenticator.start()
            defer { authenticator.stop() }
            let origin = try await authenticator.androidOrigin(fingerprint: second)
            let options = try await server.request("POST", "/auth/passkeys/signup/options", json: "{}")
            let made = try await authenticator.create(options.text, origin: origin)
            let signUp = try await server.request("POST", "/auth/passkeys/signup", json: made.body())
            #expect(signUp.status == 200, "\(signUp.text)")
        }
    }

    @Test("with passkeys on but no apps, both association files are 404")
    func noApps() async throws {
        var environment = PasskeyHarness.baseEnvironment
        environment["TOKENVEND_PASSKEYS_APPLE_APP_IDS"] = nil
        environment["TOKENVEND_PASSKEYS_ANDROID_APPS"] = nil
        try await withTestServer(environment: environment) { server in
            for path in ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"] {
                let answer = try await server.request("GET", path)
                #expect(answer.status == 404 && answer.errorCode == "not_found", "\(path): \(answer.text)")
            }
            #expect(try await server.request("POST", "/auth/passkeys/authentication/options").status == 200)
        }
    }

    @Test("without passkeys.rpId every passkey route and both association files are 404 not_found")
    func passkeysOff() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            for (method, path) in Self.passkeyRoutes {
                let answer = try await server.request(
                    method, path, headers: login.bearer, json: method == "POST" || method == "PATCH" ? "{}" : nil)
                #expect(answer.status == 404, "\(method) \(path): \(answer.status) \(answer.text)")
                #expect(answer.errorCode == "not_found", "\(method) \(path): \(answer.text)")
            }
        }
    }

    @Test("with registration closed, sign-up options are 403 registration_closed; sign-in options still work")
    func registrationClosed() async throws {
        let environment = PasskeyHarness.baseEnvironment.merging(["TOKENVEND_REGISTRATION_ENABLED": "false"]) { $1 }
        try await withTestServer(environment: environment) { server in
            for body in ["{}", #"{"email":"closed@example.com"}"#] {
                let answer = try await server.request("POST", "/auth/passkeys/signup/options", json: body)
                #expect(answer.status == 403 && answer.errorCode == "registration_closed", "\(answer.text)")
            }
            #expect(try await server.request("POST", "/auth/passkeys/authentication/options").status == 200)
        }
    }

    @Test("every ceremony call counts toward the per-address limit: the next one is 429")
    func perAddressLimit() async throws {
        let environment = PasskeyHarness.baseEnvironment.merging([
            "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "3"
        ]) { $1 }
        try await withTestServer(environment: environment) { server in
            #expect(try await server.request("POST", "/auth/passkeys/authentication/options").status == 200)
            #expect(try await server.request("POST", "/auth/passkeys/signup/options", json: "{}").status == 200)
            let failed = try await server.request(
                "POST", "/auth/passkeys/authentication", json: #"{"credential":"x"}"#)
            #expect(failed.status == 400, "\(failed.text)")
            let limited = try await server.request("POST", "/auth/passkeys/authentication/options")
            #expect(limited.status == 429, "\(limited.status) \(limited.text)")
            #expect(limited.headers["retry-after"] != nil)
        }
    }
}
