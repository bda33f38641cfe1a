import AuthAPI
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging
import Store

extension AuthService {
    /// `GET /auth/oauth/{provider}/callback?code&state` (or `?error&state`): the provider sends the browser back.
    ///
    /// The flow is taken by the SHA-256 of `state` (deleted on first use); an unknown, used or expired state, or
    /// another provider's, is a 400 JSON body and no redirect, since the app to return to is not known. From then
    /// on every outcome is a 302 to the app's `redirect_uri` with the app's `state`: `code` (a one-time tokenvend
    /// code, 60 s) on success, else `error` (RFC 6749 §4.1.2.1) and `error_description` (tokenvend's code). The
    /// provider's code is exchanged here with the client credentials, which never leave the server; no code,
    /// state, nonce, token or secret is logged.
    func finishOAuth(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        try await limitAddress(request)
        let name = request.parameters["provider"] ?? ""
        let unknownFlow = { () -> ServiceError in
            self.metrics.oauthSignIns.increment(.callbackInvalidState)
            context.logger.info("browser sign-in callback refused: unknown state", metadata: ["provider": "\(name)"])
            return .invalidRequest("Unknown, used or expired sign-in; start again.")
        }
        let query: FormParameters
        do {
            query = try FormParameters(request.query)
        } catch {
            throw unknownFlow()
        }
        guard let state = query["state"], !state.isEmpty else { throw unknownFlow() }
        let stateHash = try OAuthRandom.sha256Hex(state)
        let taken: OAuthFlow?
        do {
            taken = try await browser.store.takeFlow(stateHash: stateHash, now: now())
        } catch {
            throw Self.mapStore(error)
        }
        guard let flow = taken, flow.provider == name else { throw unknownFlow() }
        let back = { (error: String, description: ErrorCode) -> HTTPResponse in
            Self.redirect(
                to: FormParameters.appending(
                    [("error", error), ("error_description", description.rawValue), ("state", flow.appState)],
                    to: flow.redirectURI))
        }
        if let providerError = query["error"] {
            metrics.oauthSignIns.increment(.callbackProviderError)
            let passed = Self.authorizationErrors.contains(providerError) ? providerError : "access_denied"
            context.logger.info(
                "browser sign-in: the provider answered with an error",
                metadata: ["provider": "\(name)", "error": "\(passed)"])
            return back(passed, .invalidGrant)
        }
        guard let code = query["code"], !code.isEmpty, let provider = browser.providers[name] else {
            metrics.oauthSignIns.increment(.callbackRejected)
            return back("access_denied", .invalidGrant)
        }
        let vouched: ProviderIdentity
        do {
            vouched = try await provider.identity(
                code: code, codeVerifier: flow.codeVerifier, nonce: flow.nonce, now: now())
        } catch {
            let unavailable: Bool
            if case .providerUnavailable = error { unavailable = true } else { unavailable = false }
            metrics.oauthSignIns.increment(unavailable ? .callbackProviderUnavailable : .callbackRejected)
            context.logger.info(
                "browser sign-in: provider identity not accepted",
                metadata: ["provider": "\(name)", "reason": "\(error.reason)"])
            return unavailable ? back("temporarily_unavailable", .unavailable) : back("access_denied", .invalidGrant)
        }
        let outcome: AccountOutcome
        do {
            outcome = try await resolveAccount(provider: name, subject: vouched.subject, email: vouched.email)
        } catch .emailTaken {
            outcome = .conflict
        } catch {
            context.logger.warning("browser sign-in: store failed", metadata: ["error": "\(error)"])
            return back("temporarily_unavailable", .unavailable)
        }
        let user: Store.User
        let result: IDTokenSignInResult
        switch outcome {
        case .user(let found, let how) where !found.isDisabled:
            (user, result) = (found, how)
        case .user, .disabled:
            metrics.oauthSignIns.increment(.callbackRejected)
            return back("access_denied", .invalidGrant)
        case .conflict:
            metrics.oauthSignIns.increment(.callbackConflict)
            return back("access_denied", .identityConflict)
        case .registrationClosed:
            metrics.oauthSignIns.increment(.callbackRegistrationClosed)
            return back("access_denied", .registrationClosed)
        }
        let oneTime = try OAuthRandom.token()
        let codeHash = try OAuthRandom.sha256Hex(oneTime)
        let issued = now()
        do {
            try await browser.store.saveCode(
                AuthorizationCode(
                    codeHash: codeHash, userID: user.id, provider: name,
                    redirectURI: flow.redirectURI, codeChallenge: flow.codeChallenge, created: result == .created,
                    createdAt: issued,
                    expiresAt: issued.addingTimeInterval(TimeInterval(BrowserSignIn.codeLifetimeSeconds))))
        } catch {
            context.logger.warning("browser sign-in: code not stored", metadata: ["error": "\(error)"])
            return back("temporarily_unavailable", .unavailable)
        }
        metrics.oauthSignIns.increment(
            result == .created ? .callbackCreated : result == .linked ? .callbackLinked : .callbackSignedIn)
        context.accessLogMetadata["user.id"] = .string(user.id)
        context.logger.info(
            "browser sign-in: identity accepted", metadata: ["provider": "\(name)", "result": "\(result.rawValue)"])
        return Self.redirect(
            to: FormParameters.appending([("code", oneTime), ("state", flow.appState)], to: flow.redirectURI))
    }

    /// The error codes of RFC 6749 §4.1.2.1 a provider's error is passed on as; anything else is `access_denied`.
    static let authorizationErrors: Set<String> = [
        "invalid_request", "unauthorized_client", "access_denied", "unsupported_response_type", "invalid_scope",
        "server_error", "temporarily_unavailable",
    ]
}
