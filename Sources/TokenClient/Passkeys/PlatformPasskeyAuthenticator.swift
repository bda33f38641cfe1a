#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    public import AuthAPI
    public import AuthenticationServices
    import Foundation

    // Apple platforms only; NOT compiled in this repository's CI (Linux). Kept to the glue between
    // ASAuthorizationController and the portable code tested on Linux: the options' bytes come from
    // PasskeyCreationParameters / PasskeyRequestParameters, the JSON forms from the credentials' raw-bytes
    // initializers (base64url), and the session runs the ceremony (AuthSession+Passkeys).

    /// The device's passkeys (iCloud Keychain, or a phone through the hybrid transport), through
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider`: pass it to ``AuthSession/signUpWithPasskey(email:name:authenticator:)``,
    /// ``AuthSession/signInWithPasskey(authenticator:)`` or ``AuthSession/addPasskey(name:authenticator:)``.
    ///
    /// The app needs the associated domain `webcredentials:<rpId>` and the server's
    /// `/.well-known/apple-app-site-association` listing its app id (`passkeys.appleAppIds`).
    ///
    /// ```swift
    /// let authenticator = PlatformPasskeyAuthenticator { view.window! }
    /// let user = try await session.signInWithPasskey(authenticator: authenticator)
    /// ```
    public struct PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// Creates the authenticator.
        /// - Parameter presentationAnchor: the window the system sheet is presented from, read when a ceremony
        ///   starts.
        public init(presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            anchor = presentationAnchor
        }

        /// Asks the platform for a new passkey.
        /// - Throws: ``TokenClientError/invalidResponse`` for options that are not base64url,
        ///   ``PasskeyAuthenticatorError``.
        public func makeCredential(for options: PasskeyCreationOptions) async throws -> PasskeyRegistrationCredential {
            try await Self.register(try PasskeyCreationParameters(options), anchor: anchor)
        }

        /// Asks the platform for an assertion with one of the RP's passkeys.
        /// - Throws: as ``makeCredential(for:)``.
        public func makeAssertion(for options: PasskeyRequestOptions) async throws -> PasskeyAssertionCredential {
            try await Self.authenticate(try PasskeyRequestParameters(options), anchor: anchor)
        }

        @MainActor
        private static func register(
            _ parameters: PasskeyCreationParameters, anchor: @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws -> PasskeyRegistrationCredential {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: parameters.relyingPartyID)
            let request = provider.createCredentialRegistrationRequest(
                challenge: Data(parameters.challenge), name: parameters.userName, userID: Data(parameters.userID))
            request.displayName = parameters.userDisplayName
            request.userVerificationPreference = preference(parameters.userVerification)
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                request.excludedCredentials = parameters.excludedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0))
                }
            }
            let authorization = try await PasskeyAuthorization(anchor: anchor()).perform(request)
            guard
                let registration = authorization.credential
                    as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                let attestationObject = registration.rawAttestationObject
            else { throw PasskeyAuthenticatorError.unexpectedCredential }
            return PasskeyRegistrationCredential(
                credentialID: Array(registration.credentialID), clientDataJSON: Array(registration.rawClientDataJSON),
                attestationObject: Array(attestationObject))
        }

        @MainActor
        private static func authenticate(
            _ parameters: PasskeyRequestParameters, anchor: @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws -> PasskeyAssertionCredential {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: parameters.relyingPartyID)
            let request = provider.createCredentialAssertionRequest(challenge: Data(parameters.challenge))
            request.userVerificationPreference = preference(parameters.userVerification)
            request.allowedCredentials = parameters.allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0))
            }
            let authorization = try await PasskeyAuthorization(anchor: anchor()).perform(request)
            guard
                let assertion = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
                let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature
            else { throw PasskeyAuthenticatorError.unexpectedCredential }
            return PasskeyAssertionCredential(
                credentialID: Array(assertion.credentialID), clientDataJSON: Array(assertion.rawClientDataJSON),
                authenticatorData: Array(authenticatorData), signature: Array(signature),
                userHandle: assertion.userID.map { Array($0) })
        }

        /// The platform's preference for the options' `userVerification`.
        private static func preference(_ value: String) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference
        {
            switch value {
            case "required": .required
            case "discouraged": .discouraged
            default: .preferred
            }
        }
    }

    /// One `ASAuthorizationController` run: performs one request and resumes the caller with its outcome. Keeps
    /// itself alive until then (the controller holds its delegate weakly).
    @MainActor
    private final class PasskeyAuthorization: NSObject {
        private let anchor: ASPresentationAnchor
        private var continuation: CheckedContinuation<ASAuthorization, any Error>?
        private var controller: ASAuthorizationController?
        private var keepAlive: PasskeyAuthorization?

        init(anchor: ASPresentationAnchor) {
            self.anchor = anchor
        }

        func perform(_ request: ASAuthorizationRequest) async throws -> ASAuthorization {
            try await withCheckedThrowingContinuation { continuation in
                MainActor.assumeIsolated { start(request, continuation) }
            }
        }

        private func start(
            _ request: ASAuthorizationRequest, _ continuation: CheckedContinuation<ASAuthorization, any Error>
        ) {
            self.continuation = continuation
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            keepAlive = self
            controller.performRequests()
        }

        fileprivate func finish(_ result: Result<ASAuthorization, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
            controller = nil
            keepAlive = nil
        }

        fileprivate var presentationAnchor: ASPresentationAnchor { anchor }
    }

    extension PasskeyAuthorization: @preconcurrency ASAuthorizationControllerDelegate {
        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            finish(.success(authorization))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            if let error = error as? ASAuthorizationError, error.code == .canceled {
                finish(.failure(PasskeyAuthenticatorError.cancelled))
            } else {
                finish(.failure(PasskeyAuthenticatorError.failed(String(describing: error))))
            }
        }
    }

    extension PasskeyAuthorization: @preconcurrency ASAuthorizationControllerPresentationContextProviding {
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            presentationAnchor
        }
    }
#endif
