import AuthAPI
import FoundationEssentials
import HTTPServer
import Logging
import Store
import StrictJSON
import VendorTokens

/// The endpoints tokenvend exists for: `POST /vend/{vendor}` and the two that came before it and are now presets
/// of the same engine, `POST /stream-token` (`stream.*`, the `bloomreach-stream` preset) and `GET /moss-token`
/// (`moss.*`, the `moss` preset). API.md "Token vending".
///
/// A vend is one access-token verify, one session check (with the customer ids in the same read when the template
/// uses them) and one sign: it runs inline on the event loop when the store has the session at hand (SQLite),
/// else in a `Task` (PostgreSQL).
struct TokenVending: Sendable {
    let authenticator: Authenticator
    /// `vendors.<name>`, by name.
    let vendors: [String: Vendor]
    /// `/stream-token`: the `bloomreach-stream` template built from `stream.*`; nil without stream keys (503).
    let stream: VendorTemplate?
    /// `/moss-token`: the cache built from `moss.*`; nil when Moss is not configured (503).
    let moss: MossTokenCache?
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    /// `POST /vend/{vendor}` with a JSON object of the vendor's declared parameters (or no body).
    ///
    /// The caller is authenticated first, so an unknown vendor is 404 only to a signed-in caller; then a caller
    /// outside the vendor's `roles` or without a verified email where `requireVerifiedEmail` is set gets 403
    /// `insufficient_scope` before the body is read.
    func vend(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        guard let vendor = vendors[request.parameters["vendor"] ?? ""] else {
            return try whenAuthenticated(request, context) { _ in throw ServiceError.notFound }
        }
        switch vendor.source {
        case .signed(let template):
            return try issue(template, request, context, kind: .vendor, counter: vendor.issued, access: vendor.access)
        case .moss(let cache):
            return try mossToken(cache, request, context, counter: vendor.issued, access: vendor.access)
        }
    }

    /// `POST /stream-token`, optional body `{"customerIds": {...}}` → `{"token", "expiresIn", "expiresAt"}`.
    ///
    /// `ids` is the requested map or, when absent, all of the caller's customer ids (`registered` is the user
    /// id, or the verified email with `stream.emailCustomerId`, unless an operator set it); a requested pair
    /// that is not the caller's is 403 `insufficient_scope` and nothing is signed.
    func streamToken(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        guard let stream else {
            return try whenAuthenticated(request, context) { _ in
                throw ServiceError.unavailable("Stream tokens are not configured.", retryAfter: 3600)
            }
        }
        return try issue(stream, request, context, kind: .stream, counter: nil, access: .everyone)
    }

    /// `GET /moss-token` → `{"token", "expiresIn", "expiresAt"}` from the shared project-token cache.
    func mossToken(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        try mossToken(moss, request, context, counter: nil, access: .everyone)
    }

    // MARK: - Signed templates

    /// Authenticates (with the customer ids when the template uses them), then checks the body and signs.
    private func issue(
        _ template: VendorTemplate, _ request: HTTPRequest, _ context: RequestContext, kind: IssuedTokenKind,
        counter: ServiceCounter?, access: VendorAccess
    ) throws -> HandlerResult {
        let now = now()
        guard template.needsCustomerIDs else {
            switch try authenticator.authenticateImmediately(request, now: now) {
            case .value(let caller):
                return .response(try sign(template, request, context, caller, [:], now, kind, counter, access))
            case .mustWait:
                let authenticator = self.authenticator
                return .async {
                    let caller = try await authenticator.authenticate(request, now: now)
                    return try sign(template, request, context, caller, [:], now, kind, counter, access)
                }
            }
        }
        let email = template.emailAsRegisteredCustomerID
        switch try authenticator.authenticateWithCustomerIDsImmediately(request, now: now, emailAsRegistered: email) {
        case .value(let read):
            return .response(
                try sign(template, request, context, read.caller, read.customerIDs, now, kind, counter, access))
        case .mustWait:
            let authenticator = self.authenticator
            return .async {
                let read = try await authenticator.authenticateWithCustomerIDs(
                    request, now: now, emailAsRegistered: email)
                return try sign(template, request, context, read.caller, read.customerIDs, now, kind, counter, access)
            }
        }
    }

    private func sign(
        _ template: VendorTemplate, _ request: HTTPRequest, _ context: RequestContext, _ caller: Caller,
        _ customerIDs: [String: String], _ now: Date, _ kind: IssuedTokenKind, _ counter: ServiceCounter?,
        _ access: VendorAccess
    ) throws -> HTTPResponse {
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        try Self.check(access, caller)
        let body = try JSONRequestBody.object(request)
        let vendorCaller = VendorCaller(
            userID: caller.userID, sessionID: caller.sessionID, email: caller.email, role: caller.role,
            tenantID: caller.tenantID, customerIDs: customerIDs)
        let issued: VendedJWT
        do {
            issued = try template.issue(body: body, caller: vendorCaller, now: Int64(now.timeIntervalSince1970))
        } catch {
            throw error.serviceError
        }
        metrics.tokensIssued.increment(kind)
        counter?.increment()
        switch template.response {
        case .token:
            let vended = VendedToken(token: issued.token, expiresIn: issued.expiresIn, expiresAt: issued.expiresAt)
            return .json(bytes: vended.jsonBytes(), headers: .noStore)
        case .liveKit(let serverURL):
            let details = LiveKitConnectionDetails(serverURL: serverURL, participantToken: issued.token)
            return .json(status: .created, bytes: details.jsonBytes(), headers: .noStore)
        }
    }

    // MARK: - Moss

    /// Runs inline on the event loop: a cached token is answered at once; only a cache miss (the first call,
    /// or a token past its refresh point) waits for Moss in a task.
    /// The session check, like `me`, runs inline when the store has the session at hand, else in the task.
    private func mossToken(
        _ moss: MossTokenCache?, _ request: HTTPRequest, _ context: RequestContext, counter: ServiceCounter?,
        access: VendorAccess
    ) throws -> HandlerResult {
        try whenAuthenticated(request, context) { caller in
            try Self.check(access, caller)
            guard let moss else { throw MossError.notConfigured }
            if let cached = moss.cachedToken() { return .response(mossResponse(cached, counter)) }
            return .async { try await mossResponse(moss.token(), counter) }
        }
    }

    private func mossResponse(_ vended: VendedToken, _ counter: ServiceCounter?) -> HTTPResponse {
        metrics.tokensIssued.increment(.moss)
        counter?.increment()
        var answer = vended
        answer.expiresAt = Int64(now().timeIntervalSince1970) + Int64(vended.expiresIn)
        return .json(bytes: answer.jsonBytes(), headers: .noStore)
    }

    // MARK: - Authentication

    /// 403 `insufficient_scope` for a caller outside the vendor's `roles`, or without a verified email where
    /// `requireVerifiedEmail` is set. The role and the email state are the access token's (a role change takes
    /// effect at the next refresh).
    private static func check(_ access: VendorAccess, _ caller: Caller) throws(ServiceError) {
        guard access.permits(role: caller.role, emailVerified: caller.isEmailVerified) else {
            throw .insufficientScope
        }
    }

    /// Runs `body` for the authenticated caller: inline when the session is at hand, else in a task.
    private func whenAuthenticated(
        _ request: HTTPRequest, _ context: RequestContext,
        _ body: @escaping @Sendable (Caller) throws -> HandlerResult
    ) throws -> HandlerResult {
        let now = now()
        switch try authenticator.authenticateImmediately(request, now: now) {
        case .value(let caller):
            context.accessLogMetadata["user.id"] = .string(caller.userID)
            return try body(caller)
        case .mustWait:
            let authenticator = self.authenticator
            return .async {
                let caller = try await authenticator.authenticate(request, now: now)
                context.accessLogMetadata["user.id"] = .string(caller.userID)
                switch try body(caller) {
                case .response(let response): return response
                case .async(let work): return try await work()
                }
            }
        }
    }
}
