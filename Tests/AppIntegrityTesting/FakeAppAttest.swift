import Foundation
import MailTesting
import StrictJSON

/// scripts/fake_app_attest.py as a child process on 127.0.0.1: a throw-away root and intermediate (P-384), keys as
/// DCAppAttestService makes them, and the attestations and assertions a device would send, each `tamper` case
/// breaking exactly one of Apple's checks.
///
/// ```swift
/// let fake = try await FakeAppAttest.start()                 // once per suite
/// let verifier = try AppAttestVerifier(appIDs: [appID], allowDevelopment: false, rootCertificatePEM: fake.rootPEM)
/// let (keyID, attestation, handle) = try await fake.attest(appID: appID, clientDataHash: hash)
/// let assertion = try await fake.assert(handle: handle, appID: appID, clientDataHash: hash, counter: 1)
/// ```
/// Bytes come back as standard base64, as an app sends them. `start` returns once the script printed its `PORT`
/// line (an event, never a sleep); the process is killed by ``stop()`` or when the value is released.
public final class FakeAppAttest: Sendable {
    /// Which one check an attestation fails.
    public enum Tamper: String, Sendable, CaseIterable {
        /// The leaf certifies another nonce.
        case nonce
        /// The key id answered is not the SHA-256 of the key's point.
        case keyID = "key_id"
        /// The authenticator data's counter is 1.
        case counter
        /// An AAGUID that is neither production's nor development's.
        case aaguid
        /// `fmt` is `packed`.
        case fmt
        /// The chain leads to another root.
        case otherRoot = "other_root"
        /// The leaf's validity ended yesterday.
        case expired
    }

    /// The fake's root certificate (PEM): what `integrity.apple.rootCertificateFile` holds in tests.
    public let rootPEM: String

    private let process: ScriptProcess
    private let control: ScriptControl

    private init(process: ScriptProcess, control: ScriptControl, rootPEM: String) {
        self.process = process
        self.control = control
        self.rootPEM = rootPEM
    }

    deinit {
        process.stop()
    }

    /// Starts the fake on a port the kernel picks and reads its root.
    public static func start() async throws -> FakeAppAttest {
        let process = ScriptProcess()
        try await process.start(Self.scriptPath, port: 0, arguments: [])
        let control = ScriptControl(port: process.port)
        guard let pem = try await control.get("/root").objectValue?["pem"]?.stringValue else {
            process.stop()
            throw ScriptControl.Failure(description: "/root answered without pem")
        }
        return FakeAppAttest(process: process, control: control, rootPEM: pem)
    }

    /// Kills the process.
    public func stop() {
        process.stop()
    }

    /// A new key, as `generateKey` makes one: its id (standard base64 of the SHA-256 of its point) and the handle
    /// that names it to the fake.
    public func newKey() async throws -> (keyID: String, handle: String) {
        let answer = try await control.post("/key", [:])
        return (try Self.string(answer, "keyId"), try Self.string(answer, "handle"))
    }

    /// An attestation of the key `handle` (a new key when nil) for `appID` and `clientDataHash`.
    /// - Parameter development: the development AAGUID (`appattestdevelop`).
    /// - Returns: the key id (standard base64), the attestation object (standard base64) and the key's handle.
    public func attest(
        appID: String, clientDataHash: [UInt8], handle: String? = nil, development: Bool = false,
        tamper: Tamper? = nil
    ) async throws -> (keyID: String, attestation: String, handle: String) {
        var body: JSONObject = [
            "appId": .string(appID), "clientDataHash": .string(Data(clientDataHash).base64EncodedString()),
            "development": .bool(development),
        ]
        if let handle { body["handle"] = .string(handle) }
        if let tamper { body["tamper"] = .string(tamper.rawValue) }
        let answer = try await control.post("/attest", body)
        return (
            try Self.string(answer, "keyId"), try Self.string(answer, "attestation"), try Self.string(answer, "handle")
        )
    }

    /// An assertion by the key `handle` with `counter`, for `appID` and `clientDataHash` (standard base64).
    public func assert(handle: String, appID: String, clientDataHash: [UInt8], counter: UInt32) async throws
        -> String
    {
        let answer = try await control.post(
            "/assert",
            [
                "handle": .string(handle), "appId": .string(appID),
                "clientDataHash": .string(Data(clientDataHash).base64EncodedString()),
                "counter": .integer(Int64(counter)),
            ])
        return try Self.string(answer, "assertion")
    }

    private static let scriptPath = ScriptProcess.scriptPath("fake_app_attest.py", from: #filePath)

    private static func string(_ answer: JSONValue, _ name: String) throws -> String {
        guard let text = answer.objectValue?[name]?.stringValue else {
            throw ScriptControl.Failure(description: "the fake's answer has no string \(name)")
        }
        return text
    }
}
