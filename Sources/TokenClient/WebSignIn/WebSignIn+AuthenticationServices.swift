#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    public import AuthenticationServices
    import Foundation

    // Not compiled on Linux (no AuthenticationServices there), nor on tvOS (no ASWebAuthenticationSession) and
    // watchOS (no presentation context provider). Kept to the glue between the browser sheet and
    // `AuthSession.completeWebSignIn`, which is tested everywhere.
    extension WebSignIn {
        /// Runs the whole web sign-in: opens ``PendingWebSignIn/authorizationURL`` in an
        /// `ASWebAuthenticationSession`, waits for the redirect to ``redirectURI``'s custom scheme, and completes the
        /// sign-in on `session`.
        ///
        /// - Parameters:
        ///   - session: the session that receives the tokens.
        ///   - presentationContextProvider: the window to present the browser sheet from.
        ///   - prefersEphemeral: true for a private browser session (no shared cookies: the provider asks for the
        ///     password again). Default: false.
        /// - Returns: as ``AuthSession/completeWebSignIn(_:callbackURL:)``.
        /// - Throws: ``WebSignInError/cancelled`` when the user closes the sheet, else as
        ///   ``AuthSession/completeWebSignIn(_:callbackURL:)``.
        @MainActor
        public func signIn(
            session: AuthSession, presentationContextProvider: any ASWebAuthenticationPresentationContextProviding,
            prefersEphemeral: Bool = false
        ) async throws -> SignInResult {
            let pending = start()
            let scheme = URL(string: redirectURI)?.scheme
            let callbackURL: URL = try await withCheckedThrowingContinuation { continuation in
                let browser = ASWebAuthenticationSession(url: pending.authorizationURL, callbackURLScheme: scheme) {
                    url, error in
                    if let url {
                        continuation.resume(returning: url)
                    } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                        continuation.resume(throwing: WebSignInError.cancelled)
                    } else {
                        continuation.resume(throwing: TokenClientError.transport(String(describing: error)))
                    }
                }
                browser.presentationContextProvider = presentationContextProvider
                browser.prefersEphemeralWebBrowserSession = prefersEphemeral
                if !browser.start() {
                    continuation.resume(throwing: TokenClientError.transport("the browser sheet could not start"))
                }
            }
            return try await session.completeWebSignIn(pending, callbackURL: callbackURL)
        }
    }
#endif
