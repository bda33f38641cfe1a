import AuthAPI
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging
import Store

extension AuthService {
    /// `GET /auth/oauth/{provider}?redirect_uri&code_challenge&code_challenge_method=S256&state` → 302 to the
    /// provider's authorization endpoint with tokenvend's own `state`, `nonce` and PKCE challenge.
    ///
    /// Every refusal is a 400 JSON body and never a redirect, above all for a `redirect_uri` that is not
    /// registered (an open redirector would hand codes to anyone). The flow is stored for
    /// `identity.flowLifetimeSeconds`, keyed by the SHA-256 of tokenvend's state; the state itself is never stored
    /// or logged. Counted against the client address like login (429), and capped: an address may start
    /// `identity.maxPendingFlowsPerAddress` flows within `identity.flowLifetimeSeconds` (429 beyond), and at most
    /// `identity.maxPendingFlows` flows may be under way in all (503 with `Retry-After` beyond), so that flows
    /// started and never finished cannot fill the database.
    func startOAuth(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await limitAddress(request)
        } catch {
            if case .tooManyRequests = error { metrics.oauthSignIns.increment(.startRateLimited) }
            throw error
        }
        let name = request.parameters["provider"] ?? ""
        let refuse = { (message: String) -> ServiceError in
            self.metrics.oauthSignIns.increment(.startInvalidRequest)
            context.logger.info("browser sign-in refused", metadata: ["reason": "\(message)"])
            return .invalidRequest(message)
        }
        let query: FormParameters
        do {
            query = try FormParameters(request.query)
        } catch {
            throw refuse("The query is malformed or repeats a parameter.")
        }
        guard let provider = browser.providers[name], let registered = browser.redirectURIs[name] else {
            throw refuse("Unknown provider, or it does not sign in through the browser.")
        }
        guard let redirectURI = query["redirect_uri"], RedirectURIMatch.isRegistered(redirectURI, in: registered)
        else { throw refuse("redirect_uri is missing or not registered for this provider.") }
        if let type = query["response_type"], type != "code" { throw refuse("response_type must be code.") }
        guard query["code_challenge_method"] == "S256" else {
            throw refuse("code_challenge_method must be S256.")
        }
        guard let challenge = query["code_challenge"], PKCE.isValidChallenge(challenge) else {
            throw refuse("code_challenge must be 43 base64url characters (S256).")
        }
        guard let appState = query["state"], Self.isValidAppState(appState) else {
            throw refuse("state must be 1 to 512 printable ASCII characters.")
        }
        try await limitFlowStarts(request, context)
        let state = try OAuthRandom.token()
        let nonce = try OAuthRandom.token()
        let verifier = try PKCE.makeVerifier()
        let challengeToProvider = try PKCE.challenge(for: verifier)
        let stateHash = try OAuthRandom.sha256Hex(state)
        let location: String
        do {
            location = try await provider.authorizationURL(
                state: state, nonce: nonce, codeChallenge: challengeToProvider)
        } catch {
            metrics.oauthSignIns.increment(.startProviderUnavailable)
            context.logger.warning(
                "browser sign-in: provider discovery failed",
                metadata: ["provider": "\(name)", "reason": "\(error.reason)"])
            throw ServiceError.unavailable(
                "The identity provider cannot be reached; retry later.", retryAfter: Self.retryAfter(error))
        }
        // The endpoint comes from a remote discovery document: a byte that cannot stand in a header (a control
        // character, a space, non-ASCII) never reaches the Location field.
        guard Self.isHeaderSafeURL(location) else {
            metrics.oauthSignIns.increment(.startProviderUnavailable)
            context.logger.warning(
                "browser sign-in: the provider's authorization URL is not a valid header value",
                metadata: ["provider": "\(name)"])
            throw ServiceError.unavailable("The identity provider's configuration is unusable.", retryAfter: 60)
        }
        let started = now()
        let flow = OAuthFlow(
            stateHash: stateHash, provider: name, redirectURI: redirectURI,
            codeChallenge: challenge, appState: appState, nonce: nonce, codeVerifier: verifier, createdAt: started,
            expiresAt: started.addingTimeInterval(TimeInterval(browser.flowLifetimeSeconds)))
        let saved: Bool
        do {
            saved = try await browser.store.saveFlow(flow, maxLive: browser.maxPendingFlows)
        } catch {
            throw Self.mapStore(error)
        }
        guard saved else {
            metrics.oauthSignIns.increment(.startTooManyFlows)
            context.logger.warning(
                "browser sign-in refused: identity.maxPendingFlows flows under way",
                metadata: ["provider": "\(name)", "maxPendingFlows": "\(browser.maxPendingFlows)"])
            throw ServiceError.unavailable(
                "Too many sign-ins are under way; retry later.", retryAfter: Self.tooManyFlowsRetryAfter(browser))
        }
        metrics.oauthSignIns.increment(.startRedirected)
        context.logger.info("browser sign-in started", metadata: ["provider": "\(name)"])
        return Self.redirect(to: location)
    }

    /// Counts a flow start against the client address: 429 beyond `identity.maxPendingFlowsPerAddress` starts in
    /// `identity.flowLifetimeSeconds`, 503 when the counters cannot answer.
    private func limitFlowStarts(_ request: HTTPRequest, _ context: RequestContext) async throws {
        let decision: RateLimiter.Decision
        do {
            decision = try await limits.flowStarts.acquire(Self.addressKey(of: request))
        } catch {
            throw Self.rateLimitUnavailable(error)
        }
        if case .limited(let seconds) = decision {
            metrics.oauthSignIns.increment(.startRateLimited)
            context.logger.info("browser sign-in refused: identity.maxPendingFlowsPerAddress reached")
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
    }

    /// `Retry-After` past `identity.maxPendingFlows`: flows end (called back or expired) continually, so a short
    /// wait; never longer than a flow lives. 30 s.
    static func tooManyFlowsRetryAfter(_ browser: BrowserSignIn) -> Int {
        min(30, browser.flowLifetimeSeconds)
    }

    /// 1 to 512 bytes of printable ASCII (RFC 6749 §A.5: `state` is VSCHAR).
    static func isValidAppState(_ state: String) -> Bool {
        (1...BrowserSignIn.maximumAppStateBytes).contains(state.utf8.count)
            && state.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// True when every byte of `url` is visible ASCII (0x21…0x7E): safe as a `Location` value.
    static func isHeaderSafeURL(_ url: String) -> Bool {
        !url.isEmpty && url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// A 302 to `location` that no cache keeps and that sends no `Referer` onward.
    static func redirect(to location: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Location", value: location)
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Pragma", value: "no-cache")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        return HTTPResponse(status: HTTPStatus(code: 302), headers: headers)
    }

    /// The `Retry-After` of a provider failure: its own, or 5 s.
    static func retryAfter(_ failure: BrowserSignInFailure) -> Int {
        if case .providerUnavailable(let seconds) = failure { return max(1, seconds) }
        return 5
    }
}
