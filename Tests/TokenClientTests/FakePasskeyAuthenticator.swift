import AuthAPI
import Foundation
import TokenClient
import TokenClientCore

/// A ``PasskeyAuthenticator`` for the fake server: client data with the options' challenge, made-up attestation and
/// signature bytes, and the credentials it made remembered (id → user handle), like a platform's keychain.
final class FakePasskeyAuthenticator: PasskeyAuthenticator {
    struct Made: Sendable {
        var id: [UInt8]
        var userHandle: [UInt8]
    }

    private let made = Locked<[Made]>([])
    private let creationOptions = Locked<[PasskeyCreationOptions]>([])
    private let requestOptions = Locked<[PasskeyRequestOptions]>([])
    /// When set, every call throws it (a user who cancels).
    let failure: PasskeyAuthenticatorError?

    init(failure: PasskeyAuthenticatorError? = nil) { self.failure = failure }

    /// The options each call received, in order.
    var receivedCreationOptions: [PasskeyCreationOptions] { creationOptions.withLock { $0 } }
    var receivedRequestOptions: [PasskeyRequestOptions] { requestOptions.withLock { $0 } }

    func makeCredential(for options: PasskeyCreationOptions) async throws -> PasskeyRegistrationCredential {
        creationOptions.withLock { $0.append(options) }
        if let failure { throw failure }
        let parameters = try PasskeyCreationParameters(options)
        let id = Array("credential-\(made.withLock { $0.count } + 1)".utf8)
        made.withLock { $0.append(Made(id: id, userHandle: parameters.userID)) }
        return PasskeyRegistrationCredential(
            credentialID: id, clientDataJSON: Self.clientData("webauthn.create", options.challenge),
            attestationObject: [0xa3, 0x01, 0x02], transports: ["internal"], authenticatorAttachment: "platform")
    }

    /// Asserts with the newest credential it made.
    func makeAssertion(for options: PasskeyRequestOptions) async throws -> PasskeyAssertionCredential {
        requestOptions.withLock { $0.append(options) }
        if let failure { throw failure }
        guard let credential = made.withLock({ $0.last }) else { throw PasskeyAuthenticatorError.cancelled }
        return PasskeyAssertionCredential(
            credentialID: credential.id, clientDataJSON: Self.clientData("webauthn.get", options.challenge),
            authenticatorData: Array(repeating: 7, count: 37), signature: [0x30, 0x44],
            userHandle: credential.userHandle)
    }

    static func clientData(_ type: String, _ challenge: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"https://example.test"}"#.utf8)
    }
}
