import AppIntegrityTesting
public import AuthAPI
import Foundation
import MailTesting
import StrictJSON

/// scripts/passkey_authenticator.py as a child process on 127.0.0.1: software passkey authenticators
/// (scripts/soft_authenticator.py, on `cryptography` + `cbor2`) whose every registration and assertion is also
/// checked by py_webauthn, a WebAuthn library nobody here wrote. A ceremony meant to be valid that py_webauthn refuses
/// throws (the authenticator is wrong, not the server).
///
/// ```swift
/// let authenticator = try await PasskeyAuthenticator.start()            // once per suite
/// let made = try await authenticator.create(optionsJSON, origin: "https://example.com")
/// // POST {"credential": made.json} to /auth/passkeys/registration
/// let assertion = try await authenticator.get(requestOptionsJSON, origin: "https://example.com",
///                                             credentialID: made.credentialID)
/// ```
/// `start` returns once the script printed its `PORT` line (an event, never a sleep); the process is killed by
/// ``stop()`` or when the value is released.
public final class PasskeyAuthenticator: Sendable {
    /// What went wrong talking to the script (or py_webauthn refusing a ceremony meant to be valid).
    public struct Failure: Error, CustomStringConvertible {
        /// What the script answered.
        public let description: String
    }

    /// One software authenticator in the script, holding discoverable credentials.
    public struct Device: Sendable, Equatable {
        /// Its id in the script.
        public let id: String
    }

    /// How a device's sign counters move.
    public enum CounterMode: String, Sendable {
        /// One more per assertion, from 0 at registration.
        case increment
        /// Always 0, as synced passkeys send.
        case zero
    }

    /// A COSE algorithm for a new credential.
    public enum Algorithm: Int, Sendable, CaseIterable {
        /// ECDSA P-256 with SHA-256.
        case es256 = -7
        /// Ed25519.
        case edDSA = -8
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256 = -257
        /// ECDSA P-384 with SHA-384: an algorithm tokenvend does not allow.
        case es384 = -35
    }

    /// A way to make the credential's JSON not decode.
    public enum Malformation: String, Sendable {
        /// `clientDataJSON` is not base64url.
        case base64
        /// `clientDataJSON` is not JSON.
        case clientDataJSON = "client_data_json"
        /// The attestation object is not CBOR (registration).
        case cbor
        /// The credential public key is not CBOR (registration).
        case coseKey = "cose_key"
        /// The authenticator data is cut to 20 bytes.
        case authenticatorData = "authenticator_data"
    }

    /// What to vary or break in one ceremony (nil: as a platform passkey does it). Named as in
    /// scripts/soft_authenticator.py.
    public struct Knobs: Sendable {
        /// `clientDataJSON.type` instead of `webauthn.create` / `webauthn.get`.
        public var type: String?
        /// The challenge (base64url) instead of the options'.
        public var challenge: String?
        /// `crossOrigin: true`.
        public var crossOrigin: Bool?
        /// A `topOrigin` member.
        public var topOrigin: String?
        /// An `androidPackageName` member, as Android's Credential Manager sends.
        public var androidPackageName: String?
        /// The `rpIdHash` of this RP id instead of the options'.
        public var rpID: String?
        /// Flag UP (default set).
        public var userPresent: Bool?
        /// Flag UV (default set).
        public var userVerified: Bool?
        /// Flag BE (default the device's).
        public var backupEligible: Bool?
        /// Flag BS (default the device's).
        public var backedUp: Bool?
        /// The sign counter sent (and kept).
        public var counter: UInt32?
        /// `id` names another credential than `rawId`.
        public var idMismatch: Bool?
        /// JSON that does not decode.
        public var malformed: Malformation?
        /// Registration: no attested credential data (flag AT clear).
        public var noAttestedData: Bool?
        /// Registration: the new credential's algorithm (default ES256).
        public var algorithm: Algorithm?
        /// Registration: RS256's modulus size (default 2048).
        public var rsaBits: Int?
        /// Registration: the COSE key's `alg` label, disagreeing with its key.
        public var coseAlgorithm: Int?
        /// Registration: a P-256 point off the curve.
        public var offCurve: Bool?
        /// Registration: an Ed25519 key of 31 bytes.
        public var shortEd25519: Bool?
        /// Registration: the credential id's length in bytes (default 32).
        public var credentialIDLength: Int?
        /// Registration: register this kept credential (base64url id) again.
        public var reuseCredential: String?
        /// Registration: `packed` self-attestation instead of `none`.
        public var packedAttestation: Bool?
        /// Assertion: one signature bit flipped.
        public var tamperSignature: Bool?
        /// Assertion: this `userHandle` (base64url) instead of the credential's.
        public var userHandle: String?
        /// Assertion: no `userHandle`.
        public var omitUserHandle: Bool?

        /// No knob: a ceremony as a platform makes it.
        public init() {}

        /// Sets one knob: `Knobs.with(\.userVerified, false)`.
        public static func with<Value>(_ path: WritableKeyPath<Knobs, Value?>, _ value: Value) -> Knobs {
            var knobs = Knobs()
            knobs[keyPath: path] = value
            return knobs
        }

        var json: JSONObject {
            var object = JSONObject()
            func put(_ name: String, _ value: JSONValue?) { if let value { object.set(name, value) } }
            put("type", type.map(JSONValue.string))
            put("challenge", challenge.map(JSONValue.string))
            put("cross_origin", crossOrigin.map(JSONValue.bool))
            put("top_origin", topOrigin.map(JSONValue.string))
            put("android_package_name", androidPackageName.map(JSONValue.string))
            put("rp_id", rpID.map(JSONValue.string))
            put("up", userPresent.map(JSONValue.bool))
            put("uv", userVerified.map(JSONValue.bool))
            put("be", backupEligible.map(JSONValue.bool))
            put("bs", backedUp.map(JSONValue.bool))
            put("counter", counter.map { .integer(Int64($0)) })
            put("id_mismatch", idMismatch.map(JSONValue.bool))
            put("malformed", malformed.map { .string($0.rawValue) })
            put("no_attested_data", noAttestedData.map(JSONValue.bool))
            put("alg", algorithm.map { .integer(Int64($0.rawValue)) })
            put("rsa_bits", rsaBits.map { .integer(Int64($0)) })
            put("cose_alg", coseAlgorithm.map { .integer(Int64($0)) })
            put("off_curve", offCurve.map(JSONValue.bool))
            put("short_ed25519", shortEd25519.map(JSONValue.bool))
            put("credential_id_length", credentialIDLength.map { .integer(Int64($0)) })
            put("reuse_credential", reuseCredential.map(JSONValue.string))
            put("fmt", packedAttestation.map { .string($0 ? "packed" : "none") })
            put("tamper_signature", tamperSignature.map(JSONValue.bool))
            put("user_handle", userHandle.map(JSONValue.string))
            put("omit_user_handle", omitUserHandle.map(JSONValue.bool))
            return object
        }
    }

    /// A credential JSON the script made, and py_webauthn's verdict on it.
    public struct Ceremony: Sendable {
        /// RegistrationResponseJSON or AuthenticationResponseJSON, as JSON text.
        public let json: String
        /// The credential's id (`rawId`), base64url.
        public let credentialID: String
        /// Whether no knob broke it and its origin was expected (then py_webauthn accepted it, or this threw).
        public let expectedValid: Bool
        /// Whether py_webauthn accepted it.
        public let pyWebauthnAccepted: Bool
        /// py_webauthn's result or refusal, for messages.
        public let pyWebauthnDetail: String

        /// `{"credential": …}` plus `"name"` when given: the body of a registration, sign-up or sign-in.
        public func body(name: String? = nil) -> String {
            guard let name else { return #"{"credential":\#(json)}"# }
            return #"{"credential":\#(json),"name":\#(JSONValue.string(name).jsonString)}"#
        }

        /// The JSON decoded as a registration credential.
        public func registration() throws -> PasskeyRegistrationCredential {
            try JSONDecoder().decode(PasskeyRegistrationCredential.self, from: Data(json.utf8))
        }

        /// The JSON decoded as an assertion.
        public func assertion() throws -> PasskeyAssertionCredential {
            try JSONDecoder().decode(PasskeyAssertionCredential.self, from: Data(json.utf8))
        }
    }

    /// The device made at start: counters increment, BE and BS clear.
    public static let defaultDevice = Device(id: "d0")

    private let process: ScriptProcess
    private let control: ScriptControl

    private init(process: ScriptProcess, control: ScriptControl) {
        self.process = process
        self.control = control
    }

    deinit {
        process.stop()
    }

    /// Starts the script on a port the kernel picks.
    public static func start() async throws -> PasskeyAuthenticator {
        let process = ScriptProcess()
        try await process.start(scriptPath, port: 0, arguments: [])
        return PasskeyAuthenticator(process: process, control: ScriptControl(port: process.port))
    }

    /// Kills the process.
    public func stop() {
        process.stop()
    }

    /// A new device: `counterMode`, and BE/BS for the credentials it makes.
    public func newDevice(counterMode: CounterMode = .increment, backupEligible: Bool = false, backedUp: Bool = false)
        async throws -> Device
    {
        let answer = try await control.post(
            "/device",
            [
                "counterMode": .string(counterMode.rawValue), "backupEligible": .bool(backupEligible),
                "backedUp": .bool(backedUp),
            ])
        return Device(id: try Self.string(answer, "deviceId"))
    }

    /// The `android:apk-key-hash:` origin of a signing certificate's SHA-256 fingerprint (`AB:CD:…`), computed by
    /// the script.
    public func androidOrigin(fingerprint: String) async throws -> String {
        try Self.string(try await control.post("/android-origin", ["fingerprint": .string(fingerprint)]), "origin")
    }

    /// A registration for the creation options `options` (the server's JSON text) made at `origin` on `device`,
    /// varied by `knobs`; py_webauthn checks it against `expectedOrigins` (default: `[origin]`).
    public func create(
        _ options: String, origin: String, device: Device = defaultDevice, knobs: Knobs = Knobs(),
        expectedOrigins: [String]? = nil
    ) async throws -> Ceremony {
        try await ceremony("/create", options, origin, device, knobs.json, expectedOrigins)
    }

    /// An assertion for the request options `options` (the server's JSON text) made at `origin` on `device` by
    /// `credentialID` (else the device's newest credential for the RP id), varied by `knobs`.
    public func get(
        _ options: String, origin: String, credentialID: String? = nil, device: Device = defaultDevice,
        knobs: Knobs = Knobs(), expectedOrigins: [String]? = nil
    ) async throws -> Ceremony {
        var knobs = knobs.json
        if let credentialID { knobs.set("credential_id", .string(credentialID)) }
        return try await ceremony("/get", options, origin, device, knobs, expectedOrigins)
    }

    private func ceremony(
        _ path: String, _ options: String, _ origin: String, _ device: Device, _ knobs: JSONObject,
        _ expectedOrigins: [String]?
    ) async throws -> Ceremony {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(Array(options.utf8))
        } catch {
            throw Failure(description: "the options are not JSON: \(options)")
        }
        var body: JSONObject = [
            "deviceId": .string(device.id), "options": parsed, "origin": .string(origin), "knobs": .object(knobs),
        ]
        if let expectedOrigins { body.set("expectedOrigins", .array(expectedOrigins.map(JSONValue.string))) }
        let answer: JSONValue
        do {
            answer = try await control.post(path, body)
        } catch let failure as ScriptControl.Failure {
            throw Failure(description: failure.description)
        }
        guard let object = answer.objectValue, let credential = object["credential"],
            let verdict = object["pyWebauthn"]?.objectValue
        else { throw Failure(description: "passkey_authenticator.py answered \(answer.jsonString)") }
        return Ceremony(
            json: credential.jsonString, credentialID: try Self.string(answer, "credentialId"),
            expectedValid: object["expectedValid"]?.boolValue ?? false,
            pyWebauthnAccepted: verdict["accepted"]?.boolValue ?? false,
            pyWebauthnDetail: verdict["detail"]?.stringValue ?? "")
    }

    private static let scriptPath = ScriptProcess.scriptPath("passkey_authenticator.py", from: #filePath)

    private static func string(_ answer: JSONValue, _ name: String) throws -> String {
        guard let text = answer.objectValue?[name]?.stringValue else {
            throw Failure(description: "passkey_authenticator.py's answer has no string \(name)")
        }
        return text
    }
}
