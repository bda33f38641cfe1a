import Cryptography
import Foundation
import StrictJSON
import WebAuthn

/// One ceremony of Resources/webauthn-vectors.json, made by the tests helper's software authenticator
/// (scripts/soft_authenticator.py) through scripts/generate-webauthn-vectors.py; every valid one was also accepted by
/// py_webauthn.
struct WebAuthnVector: Sendable, CustomStringConvertible {
    /// What the verifier must answer.
    enum Outcome: Sendable, Equatable {
        case accepted
        case malformed
        case failed(PasskeyCheckFailure)
    }

    let name: String
    let ceremony: String
    let challenge: [UInt8]
    let credential: JSONValue
    let expected: Outcome
    let expect: JSONObject?
    let publicKey: [UInt8]
    let storedSignCount: UInt32
    let userHandle: [UInt8]
    let storedBackupEligible: Bool?

    var description: String { name }

    /// Runs the vector's ceremony through the reader and the verifier, as the service does.
    func run(_ verifier: RelyingPartyVerifier) -> (Outcome, VerifiedRegistration?, VerifiedAuthentication?) {
        do throws(WebAuthnError) {
            if ceremony == "registration" {
                let parsed = try RegistrationCredential(json: credential)
                let registered = try verifier.verifyRegistration(
                    parsed, clientData: try CollectedClientData(parsed.clientDataJSON), expectedChallenge: challenge)
                return (.accepted, registered, nil)
            }
            let parsed = try AuthenticationCredential(json: credential)
            let result = try verifier.verifyAuthentication(
                parsed, clientData: try CollectedClientData(parsed.clientDataJSON), expectedChallenge: challenge,
                publicKey: try COSEKey(bytes: publicKey), storedSignCount: storedSignCount,
                expectedUserHandle: userHandle, storedBackupEligible: storedBackupEligible)
            return (.accepted, nil, result)
        } catch {
            switch error {
            case .malformed: return (.malformed, nil, nil)
            case .failed(let reason): return (.failed(reason), nil, nil)
            }
        }
    }

    /// The document: the relying party and its vectors.
    struct File: Sendable {
        let configuration: PasskeyConfiguration
        let vectors: [WebAuthnVector]
    }

    /// The file; nil when it cannot be read (a test checks that it can).
    static let file: File? = try? load()
    static var all: [WebAuthnVector] { file?.vectors ?? [] }

    static func load() throws -> File {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/webauthn-vectors.json")
        guard case .object(let root) = try JSONValue.parse(Array(try Data(contentsOf: url))),
            let rpID = root["rpId"]?.stringValue, case .array(let origins) = root["origins"],
            let fingerprint = root["androidFingerprint"]?.stringValue, case .array(let items) = root["vectors"]
        else { throw VectorFileError() }
        var configuration = PasskeyConfiguration()
        configuration.rpID = rpID
        configuration.origins = origins.compactMap(\.stringValue)
        let digest = Hex.decode(fingerprint.split(separator: ":").joined()) ?? []
        configuration.androidApps = [.init(packageName: "com.example.app", certificateFingerprints: [digest])]
        return File(configuration: configuration, vectors: try items.map(vector))
    }

    private static func vector(_ item: JSONValue) throws -> WebAuthnVector {
        guard case .object(let object) = item, let name = object["name"]?.stringValue,
            let ceremony = object["ceremony"]?.stringValue,
            let challenge = object["challenge"]?.stringValue.flatMap(Base64URL.decode),
            let credential = object["credential"], let malformed = object["malformed"]?.boolValue
        else { throw VectorFileError() }
        let expected: Outcome
        if malformed {
            expected = .malformed
        } else if let reason = object["failure"]?.stringValue {
            guard let failure = PasskeyCheckFailure(rawValue: reason) else { throw VectorFileError() }
            expected = .failed(failure)
        } else {
            expected = .accepted
        }
        return WebAuthnVector(
            name: name, ceremony: ceremony, challenge: challenge, credential: credential, expected: expected,
            expect: object["expect"]?.objectValue,
            publicKey: object["publicKey"]?.stringValue.flatMap(Base64URL.decode) ?? [],
            storedSignCount: UInt32(object["storedSignCount"]?.integerValue ?? 0),
            userHandle: object["userHandle"]?.stringValue.flatMap(Base64URL.decode) ?? [],
            storedBackupEligible: object["storedBackupEligible"]?.boolValue)
    }

    struct VectorFileError: Error {}
}
