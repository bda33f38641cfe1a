import AppIntegrity
import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging

/// The per-route app-integrity policy (API.md "App integrity"): on a route at `report` or `require`, checks
/// `X-App-Integrity` (an integrity token, or `debug:<secret>`) or else `X-Firebase-AppCheck`, counts the result,
/// and at `require` refuses a request without a valid one: `401 integrity_required` (none) or
/// `401 integrity_invalid` (present but bad), both with `WWW-Authenticate: AppIntegrity realm="tokenvend"`.
///
/// It runs before authentication and before the body is read. The integrity-token and debug checks are
/// synchronous, so the vend routes stay inline on the event loop; only an App Check token whose keys are not at
/// hand waits, in a task.
struct IntegrityGate: Sendable {
    /// What a synchronous check decided.
    enum Decision: Sendable {
        /// Serve the request (valid, or failed at `report`, or `off`).
        case serve
        /// An App Check token: finish the check in a task, which throws what `require` refuses.
        case mustWait(@Sendable () async throws -> Void)
    }

    /// App Check's verifier and where its keys come from.
    struct AppCheck: Sendable {
        let verifier: AppCheckVerifier
        /// The JWKS as an identity provider of the shared key cache (its URL is what matters).
        let provider: IdentityProvider
        let keys: ProviderKeyCache
    }

    /// The longest header value looked at: a longer one fails as `malformed`.
    static let maxHeaderBytes = 8 * 1024
    static let debugPrefix = "debug:"

    let configuration: IntegrityConfiguration
    let tokens: IntegrityTokens
    /// Checks the request's DPoP proof against a bound integrity token's `cnf.jkt`.
    let dpop: DPoPGate
    let appCheck: AppCheck?
    /// `vendors.<name>.integrity`, by vendor name, where set.
    let vendorModes: [String: IntegrityMode]
    let metrics: IntegrityMetrics
    let now: @Sendable () -> Date

    /// The mode of `route`.
    func mode(_ route: IntegrityRoute) -> IntegrityMode { configuration.mode(for: route) }

    /// The mode of `POST /vend/<vendor>`: the vendor's own, else `integrity.routes.vend`.
    func vendMode(_ vendor: String?) -> IntegrityMode {
        vendor.flatMap { vendorModes[$0] } ?? configuration.mode(for: .vend)
    }

    /// Runs `body` once the check of `route` (at `mode`) lets the request through: inline unless an App Check
    /// token must wait for its keys.
    func guarding(
        _ route: IntegrityRoute, mode: IntegrityMode, _ request: HTTPRequest, _ context: RequestContext,
        _ body: @escaping @Sendable () throws -> HandlerResult
    ) throws -> HandlerResult {
        switch try checkImmediately(route, mode: mode, request, context) {
        case .serve:
            return try body()
        case .mustWait(let work):
            return .async {
                try await work()
                switch try body() {
                case .response(let response): return response
                case .async(let rest): return try await rest()
                }
            }
        }
    }

    /// The check of an async route: returns when the request may be served.
    func check(_ route: IntegrityRoute, _ request: HTTPRequest, _ context: RequestContext) async throws {
        if case .mustWait(let work) = try checkImmediately(route, mode: mode(route), request, context) {
            try await work()
        }
    }

    /// Everything that needs no wait; App Check's key lookup is returned as work to await.
    func checkImmediately(
        _ route: IntegrityRoute, mode: IntegrityMode, _ request: HTTPRequest, _ context: RequestContext
    ) throws(ServiceError) -> Decision {
        guard mode != .off else { return .serve }
        if let value = request.headers[HeaderName.appIntegrity] {
            try conclude(route, mode, context, verifyHeader(value, request))
            return .serve
        }
        guard let token = request.headers[HeaderName.firebaseAppCheck] else {
            try conclude(route, mode, context, .failed(.missing, detail: "no integrity header"))
            return .serve
        }
        guard let appCheck else {
            try conclude(route, mode, context, .failed(.tokenType, detail: "App Check is not configured"))
            return .serve
        }
        let kid: String
        do throws(IntegrityError) {
            guard token.utf8.count <= Self.maxHeaderBytes else { throw .malformed("X-Firebase-AppCheck over 8 KiB") }
            kid = try AppCheckVerifier.keyID(of: token)
        } catch {
            try conclude(route, mode, context, error)
            return .serve
        }
        let now = now()
        return .mustWait {
            let outcome: IntegrityError?
            do {
                let keys = try await appCheck.keys.keys(for: appCheck.provider, kid: kid)
                _ = try appCheck.verifier.verify(token, keys: keys, now: now)
                outcome = nil
            } catch let error as IntegrityError {
                outcome = error
            } catch IDTokenFailure.providerUnavailable {
                outcome = .failed(.keysUnavailable, detail: "App Check keys unavailable")
            } catch {
                outcome = .failed(.signature, detail: "App Check key lookup: \(error)")
            }
            try conclude(route, mode, context, outcome)
        }
    }

    /// Verifies an `X-App-Integrity` value: nil when valid. A token bound to a DPoP key (`cnf.jkt`) is valid only
    /// with a valid proof by that key in the request (checked, not recorded: the route's own DPoP step records it).
    /// - Throws: `useDPoPNonce` when the proof lacks the required nonce, so the client signs again rather than
    ///   renewing its integrity token.
    private func verifyHeader(_ value: String, _ request: HTTPRequest) throws(ServiceError) -> IntegrityError? {
        guard value.utf8.count <= Self.maxHeaderBytes else { return .malformed("X-App-Integrity over 8 KiB") }
        if value.hasPrefix(Self.debugPrefix) {
            guard configuration.allowDebugTokens else {
                return .failed(.debugDisabled, detail: "debug tokens are not allowed")
            }
            guard let digest = try? SHA256.hash(Array(value.utf8.dropFirst(Self.debugPrefix.utf8.count))) else {
                return .failed(.debugUnknown, detail: "the secret could not be hashed")
            }
            var known = false
            for hash in configuration.debugTokenHashes where ConstantTime.equals(hash, digest) { known = true }
            return known ? nil : .failed(.debugUnknown, detail: "unknown debug secret")
        }
        let claims: IntegrityClaims
        do {
            claims = try tokens.verify(value, now: now())
        } catch {
            return error
        }
        guard let bound = claims.confirmationThumbprint else { return nil }
        let proven: String?
        do {
            proven = try dpop.verifiedThumbprint(request, atTokenEndpoint: false, now: now())
        } catch .useDPoPNonce(let nonce, let atTokenEndpoint) {
            throw .useDPoPNonce(nonce: nonce, atTokenEndpoint: atTokenEndpoint)
        } catch {
            return .failed(.keyMismatch, detail: "the DPoP proof is not valid")
        }
        guard let proven else { return .failed(.keyMismatch, detail: "no DPoP proof for a bound integrity token") }
        return proven == bound ? nil : .failed(.keyMismatch, detail: "the DPoP proof is by another key")
    }

    /// Counts and logs `failure` (nil: passed); at `require`, throws the 401.
    private func conclude(
        _ route: IntegrityRoute, _ mode: IntegrityMode, _ context: RequestContext, _ failure: IntegrityError?
    ) throws(ServiceError) {
        let label = IntegrityMetrics.Route(route)
        guard let failure else {
            metrics.passed(label)
            return
        }
        metrics.recordFailure(failure, route: label, context, metadata: ["mode": "\(mode.rawValue)"])
        guard mode == .require else { return }
        switch failure.reason {
        case .missing: throw .integrityRequired
        case .keysUnavailable:
            throw .unavailable("The app-integrity keys are unavailable; retry later.", retryAfter: 30)
        default: throw .integrityInvalid
        }
    }
}
