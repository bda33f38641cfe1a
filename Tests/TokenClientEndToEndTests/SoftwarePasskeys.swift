import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientCore
import TokenServiceTesting

/// A ``TokenClientCore/PasskeyAuthenticator`` over the tests helper's software authenticator
/// (scripts/passkey_authenticator.py through ``TokenServiceTesting/PasskeyAuthenticator``): one device of the script,
/// at one origin. Every ceremony it makes is also checked by py_webauthn (the script throws when py_webauthn refuses
/// one), and the options the session handed it are kept for the tests to read.
struct SoftwarePasskeys: TokenClientCore.PasskeyAuthenticator {
    let script: TokenServiceTesting.PasskeyAuthenticator
    let device: TokenServiceTesting.PasskeyAuthenticator.Device
    let origin: String
    private let creations = Locked<[PasskeyCreationOptions]>([])

    init(
        script: TokenServiceTesting.PasskeyAuthenticator, device: TokenServiceTesting.PasskeyAuthenticator.Device,
        origin: String = PasskeyServer.origin
    ) {
        self.script = script
        self.device = device
        self.origin = origin
    }

    /// The creation options the session handed over, in order.
    var receivedCreationOptions: [PasskeyCreationOptions] { creations.withLock { $0 } }

    func makeCredential(for options: PasskeyCreationOptions) async throws -> PasskeyRegistrationCredential {
        creations.withLock { $0.append(options) }
        let made = try await script.create(try Self.text(options), origin: origin, device: device)
        return try made.registration()
    }

    func makeAssertion(for options: PasskeyRequestOptions) async throws -> PasskeyAssertionCredential {
        try await script.get(try Self.text(options), origin: origin, device: device).assertion()
    }

    /// `value` as the JSON text the script reads (the client's own encoding of the options it decoded).
    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

/// One real server with passkeys on for `example.com`, and one software-authenticator process, for a whole suite
/// (`.passkeyServer`); the tests reach them through ``PasskeyServer/shared()``.
final class PasskeyServer: Sendable {
    @TaskLocal static var current: PasskeyServer?

    static let rpID = "example.com"
    static let origin = "https://example.com"
    /// Passkeys on (user verification required), no per-address limit to trip.
    static let environment = [
        "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000000",
        "TOKENVEND_PASSKEYS_RP_ID": rpID,
        "TOKENVEND_PASSKEYS_RP_NAME": "Example",
        "TOKENVEND_PASSKEYS_ORIGINS": #"["\#(origin)"]"#,
    ]

    let live: TestServer
    let script: TokenServiceTesting.PasskeyAuthenticator

    private init(live: TestServer, script: TokenServiceTesting.PasskeyAuthenticator) {
        self.live = live
        self.script = script
    }

    /// The suite's server; fails the test when the suite lacks the trait.
    static func shared() throws -> PasskeyServer {
        try #require(current, "the suite needs the .passkeyServer trait")
    }

    /// An authenticator on a new device of the script (its own credentials, counters from 0).
    func newAuthenticator() async throws -> SoftwarePasskeys {
        SoftwarePasskeys(script: script, device: try await script.newDevice())
    }

    /// A unique address.
    static func email(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }

    /// Starts both, runs `body`, stops both.
    static func run(_ body: @Sendable () async throws -> Void) async throws {
        let script = try await TokenServiceTesting.PasskeyAuthenticator.start()
        defer { script.stop() }
        try await withTestServer(environment: environment) { live in
            try await $current.withValue(PasskeyServer(live: live, script: script)) { try await body() }
        }
    }
}

/// Runs a suite inside ``PasskeyServer/run(_:)``.
struct PasskeyServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await PasskeyServer.run(function)
    }
}

extension Trait where Self == PasskeyServerTrait {
    /// One passkey server and software-authenticator process for the suite.
    static var passkeyServer: Self { PasskeyServerTrait() }
}
