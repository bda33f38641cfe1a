import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// One real server (socket mode, port 0, on a stopped ``DPoPClock``) with passkeys on for `example.com`, and one
/// scripts/passkey_authenticator.py, for a passkey suite.
final class PasskeyHarness: Sendable {
    /// The suite's harness, set by ``SharedPasskeyServer`` around the suite.
    @TaskLocal static var current: PasskeyHarness?

    /// The RP id.
    static let rpID = "example.com"
    /// The web origin (`passkeys.origins`).
    static let origin = "https://example.com"
    /// The Android app's package.
    static let androidPackage = "com.example.app"
    /// Its signing certificate's SHA-256 fingerprint, as `passkeys.androidApps` takes it.
    static let androidFingerprint = (0..<32).map { String(format: "%02X", ($0 * 7 + 0xA5) & 0xFF) }.joined(
        separator: ":")
    /// The iOS app (`passkeys.appleAppIds`).
    static let appleAppID = "ABCDE12345.com.example.app"

    /// Passkeys on (UV required), an iOS and an Android app, no per-address limit (the clock never advances a
    /// window).
    static let baseEnvironment = [
        "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000000",
        "TOKENVEND_PASSKEYS_RP_ID": rpID,
        "TOKENVEND_PASSKEYS_RP_NAME": "Example",
        "TOKENVEND_PASSKEYS_ORIGINS": #"["\#(origin)"]"#,
        "TOKENVEND_PASSKEYS_APPLE_APP_IDS": #"["\#(appleAppID)"]"#,
        "TOKENVEND_PASSKEYS_ANDROID_APPS":
            #"[{"package":"\#(androidPackage)","sha256CertFingerprints":["\#(androidFingerprint)"]}]"#,
    ]

    let server: TestServer
    let authenticator: PasskeyAuthenticator
    let clock: DPoPClock

    /// Starts a server with `environment` over ``baseEnvironment`` (a `nil` value removes a setting), and an
    /// authenticator process (or uses `authenticator`).
    init(
        environment: [String: String?] = [:], authenticator: PasskeyAuthenticator? = nil,
        clock: DPoPClock = DPoPClock()
    ) async throws {
        self.clock = clock
        var merged = Self.baseEnvironment
        for (name, value) in environment { merged[name] = value }
        server = try await TestServer(environment: merged, now: { clock.now })
        do {
            if let authenticator {
                self.authenticator = authenticator
            } else {
                self.authenticator = try await PasskeyAuthenticator.start()
            }
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The suite's harness; fails the test when the suite lacks ``SharedPasskeyServer``.
    static func shared() throws -> PasskeyHarness {
        try #require(current, "the suite needs the .sharedPasskeyServer trait")
    }

    /// Stops the server and the authenticator.
    func stop() async {
        await server.stop()
        authenticator.stop()
    }

    // MARK: - Ceremonies

    /// `POST path` with `json` and `Authorization: Bearer token` when given.
    func post(_ path: String, token: String? = nil, json: String? = "{}", headers: [String: String] = [:])
        async throws -> TestResponse
    {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try await server.request("POST", path, headers: headers, json: json)
    }

    /// The options JSON of a `200` answer; fails the test otherwise.
    static func options(_ answer: TestResponse, _ what: String) throws -> String {
        try #require(answer.status == 200, "\(what): \(answer.status) \(answer.text)")
        return answer.text
    }

    /// `POST /auth/passkeys/signup/options` with `email` (or `{}`) → the options JSON.
    func signUpOptions(email: String? = nil) async throws -> String {
        let body = email.map { #"{"email":"\#($0)"}"# } ?? "{}"
        return try Self.options(try await post("/auth/passkeys/signup/options", json: body), "sign-up options")
    }

    /// `POST /auth/passkeys/registration/options` for `token` → the options JSON.
    func registrationOptions(_ token: String) async throws -> String {
        try Self.options(try await post("/auth/passkeys/registration/options", token: token), "registration options")
    }

    /// `POST /auth/passkeys/authentication/options` → the options JSON.
    func authenticationOptions() async throws -> String {
        try Self.options(try await post("/auth/passkeys/authentication/options"), "authentication options")
    }

    /// A new passkey account: sign-up options (with `email`), a credential from `device`, `POST
    /// /auth/passkeys/signup`; fails the test unless the answer is `200` with `created: true`.
    func signUp(
        email: String? = nil, device: PasskeyAuthenticator.Device = PasskeyAuthenticator.defaultDevice,
        knobs: PasskeyAuthenticator.Knobs = .init(), headers: [String: String] = [:]
    ) async throws -> PasskeyAccount {
        let made = try await authenticator.create(
            try await signUpOptions(email: email), origin: Self.origin, device: device, knobs: knobs)
        let answer = try await post("/auth/passkeys/signup", json: made.body(), headers: headers)
        try #require(answer.status == 200, "passkey sign-up: \(answer.status) \(answer.text)")
        let object = try answer.object()
        #expect(object["created"] as? Bool == true, "sign-up answer: \(answer.text)")
        return PasskeyAccount(
            credentialID: made.credentialID, accessToken: try #require(object["accessToken"] as? String),
            userID: try #require((object["user"] as? [String: Any])?["id"] as? String), device: device)
    }

    /// Registers a new passkey on the account of `token` (from `device`, named `name`) → the `201` answer's
    /// passkey object; fails the test otherwise.
    func addPasskey(
        _ token: String, name: String? = nil, device: PasskeyAuthenticator.Device = PasskeyAuthenticator.defaultDevice,
        knobs: PasskeyAuthenticator.Knobs = .init()
    ) async throws -> (credentialID: String, passkey: [String: Any]) {
        let made = try await authenticator.create(
            try await registrationOptions(token), origin: Self.origin, device: device, knobs: knobs)
        let answer = try await post("/auth/passkeys/registration", token: token, json: made.body(name: name))
        try #require(answer.status == 201, "registration: \(answer.status) \(answer.text)")
        let passkey = try #require(try answer.object()["passkey"] as? [String: Any], "\(answer.text)")
        #expect(passkey["id"] as? String == made.credentialID)
        return (made.credentialID, passkey)
    }

    /// An assertion by `credentialID` for fresh authentication options, at `origin` (default the web origin).
    func assertion(
        _ credentialID: String, device: PasskeyAuthenticator.Device = PasskeyAuthenticator.defaultDevice,
        origin: String = origin, knobs: PasskeyAuthenticator.Knobs = .init()
    ) async throws -> PasskeyAuthenticator.Ceremony {
        try await authenticator.get(
            try await authenticationOptions(), origin: origin, credentialID: credentialID, device: device,
            knobs: knobs, expectedOrigins: [Self.origin, try await androidOrigin()])
    }

    /// `POST /auth/passkeys/authentication` with a fresh assertion by `credentialID`.
    func signIn(
        _ credentialID: String, device: PasskeyAuthenticator.Device = PasskeyAuthenticator.defaultDevice,
        knobs: PasskeyAuthenticator.Knobs = .init(), headers: [String: String] = [:]
    ) async throws -> TestResponse {
        let made = try await assertion(credentialID, device: device, knobs: knobs)
        return try await post("/auth/passkeys/authentication", json: made.body(), headers: headers)
    }

    /// The Android app's `android:apk-key-hash:` origin, computed by the script from ``androidFingerprint``.
    func androidOrigin() async throws -> String {
        try await authenticator.androidOrigin(fingerprint: Self.androidFingerprint)
    }

    /// `GET /auth/passkeys` for `token` → the passkeys; fails the test unless `200`.
    func list(_ token: String) async throws -> [[String: Any]] {
        let answer = try await server.request("GET", "/auth/passkeys", headers: ["Authorization": "Bearer \(token)"])
        try #require(answer.status == 200, "list: \(answer.status) \(answer.text)")
        return try #require(try answer.object()["passkeys"] as? [[String: Any]], "\(answer.text)")
    }

    // MARK: - Checks

    /// `tokenvend_passkey_ceremonies_total{ceremony, result, reason}` on `/metrics`'s exposition (0 when absent).
    func ceremonies(_ ceremony: String, _ reason: String) -> Double {
        DPoPHarness.sample(
            server.server.metrics.exposition(), "tokenvend_passkey_ceremonies_total",
            labels: [
                "ceremony=\"\(ceremony)\"", "result=\"\(reason == "none" ? "success" : "failure")\"",
                "reason=\"\(reason)\"",
            ])
    }

    /// A JSON text's object (options, a credential).
    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not an object")
    }

    /// The `user.id` (user handle) of creation options.
    static func userHandle(_ options: String) throws -> String {
        try #require((try object(options)["user"] as? [String: Any])?["id"] as? String, "no user.id: \(options)")
    }

    /// Checks `answer` is the refusal of a failed check: `401 invalid_credential`, the one body, `WWW-Authenticate:
    /// WebAuthn realm="tokenvend"`.
    static func expectRefusal(
        _ answer: TestResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 401, "\(what): \(answer.status) \(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorCode == "invalid_credential", "\(what): \(answer.text)", sourceLocation: sourceLocation)
        #expect(
            (try? answer.object()["message"] as? String) == "The passkey could not be verified.",
            "\(what): \(answer.text)", sourceLocation: sourceLocation)
        #expect(
            answer.headers["www-authenticate"] == #"WebAuthn realm="tokenvend""#,
            "\(what): WWW-Authenticate \(answer.headers["www-authenticate"] ?? "none")",
            sourceLocation: sourceLocation)
    }

    /// Checks `answer` is `400 invalid_request`.
    static func expectMalformed(
        _ answer: TestResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 400, "\(what): \(answer.status) \(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorCode == "invalid_request", "\(what): \(answer.text)", sourceLocation: sourceLocation)
    }
}

/// An account made by a passkey sign-up (or given a passkey): the passkey's id, a session's access token.
struct PasskeyAccount: Sendable {
    /// The passkey's credential id.
    let credentialID: String
    /// The access token of the sign-up's session.
    let accessToken: String
    /// The account's id.
    let userID: String
    /// The authenticator holding the passkey.
    let device: PasskeyAuthenticator.Device
}

/// Starts one ``PasskeyHarness`` around a whole suite (`.sharedPasskeyServer([...])`) and stops it afterwards; the
/// suite's tests reach it through ``PasskeyHarness/shared()``.
struct SharedPasskeyServer: SuiteTrait, TestScoping {
    let environment: [String: String?]

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let harness = try await PasskeyHarness(environment: environment)
        do {
            try await PasskeyHarness.$current.withValue(harness) { try await function() }
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}

extension Trait where Self == SharedPasskeyServer {
    /// One passkey server (with `environment` over ``PasskeyHarness/baseEnvironment``) and authenticator process
    /// for the suite.
    static func sharedPasskeyServer(_ environment: [String: String?] = [:]) -> Self {
        SharedPasskeyServer(environment: environment)
    }
}
