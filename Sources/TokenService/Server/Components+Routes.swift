import AppIntegrity
import AuthAPI
import FoundationEssentials
import HTTPServer
import Store

extension Components {
    /// Every route of API.md.
    func register(on router: inout Router, backend: any StoreBackend) {
        let auth = self.auth
        let email = self.email
        let accounts = self.accounts
        let vending = self.vending
        let metrics = self.metrics
        let discovery = self.discovery
        let logsProbes = logsHealthChecks
        // A probe that succeeds writes no access line unless `log.healthChecks` (the metrics count it either way).
        // The probes and the metrics describe this instant: `no-store`, so that no cache between the prober and
        // the service keeps an answer (a cached 200 would hide a failing readiness probe).
        router.get("/healthz") { _, context in
            context.logsSuccessfulAccess = logsProbes
            return Self.healthyResponse
        }
        // The ping is bounded by the backend's deadlines (PostgreSQL: the connect and query timeouts), so a
        // database that went away answers 503 rather than hanging; the next probe tries again, so readiness
        // comes back by itself once the pool reconnects.
        router.get("/readyz") { _, context async in
            context.logsSuccessfulAccess = logsProbes
            do {
                try await backend.ping()
                return .json(bytes: Self.ready, headers: Self.noStore)
            } catch {
                return .error(
                    status: .serviceUnavailable, code: ErrorCode.unavailable.rawValue,
                    message: "The database is not answering.",
                    headers: ["Retry-After": "5", "Cache-Control": "no-store"])
            }
        }
        router.get("/metrics") { _, _ in
            HTTPResponse(
                status: .ok,
                headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
                body: metrics.exposition())
        }
        router.get("/.well-known/jwks.json") { request, _ in discovery.jwks(request) }
        router.get("/.well-known/openid-configuration") { request, _ in discovery.openID(request) }
        let integrity = self.integrity
        router.post("/auth/register") { request, context async throws in
            try await integrity.check(.register, request, context)
            return try await auth.register(request, context)
        }
        router.post("/auth/login") { request, context async throws in
            try await integrity.check(.login, request, context)
            return try await auth.login(request, context)
        }
        router.post("/auth/nonce") { request, context async throws in try await auth.issueNonce(request, context) }
        router.post("/auth/idtoken") { request, context async throws in
            try await integrity.check(.idtoken, request, context)
            return try await auth.signInWithIDToken(request, context)
        }
        let appleNotifications = self.appleNotifications
        router.post("/auth/apple/notifications") { request, context async throws in
            try await appleNotifications.handle(request, context)
        }
        router.get("/auth/oauth/:provider") { request, context async throws in
            try await auth.startOAuth(request, context)
        }
        router.get("/auth/oauth/:provider/callback") { request, context async throws in
            try await auth.finishOAuth(request, context)
        }
        router.post("/auth/token") { request, context async throws in
            try await integrity.check(.idtoken, request, context)
            return try await auth.exchangeAuthorizationCode(request, context)
        }
        router.post("/auth/refresh") { request, context async throws in
            try await integrity.check(.refresh, request, context)
            return try await auth.refresh(request, context)
        }
        router.post("/auth/logout") { request, context async throws in try await auth.logout(request, context) }
        router.on(.get, "/auth/me", .syncOrAsync { request, context in try auth.me(request, context) })
        router.get("/auth/sessions") { request, context async throws in
            try await auth.listSessions(request, context)
        }
        router.delete("/auth/sessions/:id") { request, context async throws in
            try await auth.revokeSession(request, context)
        }
        router.post("/auth/email/verification") { request, context async throws in
            try await email.requestVerification(request, context)
        }
        router.post("/auth/email/verification/confirm") { request, context async throws in
            try await email.confirmVerification(request, context)
        }
        router.post("/auth/password/reset") { request, context async throws in
            try await email.requestPasswordReset(request, context)
        }
        router.post("/auth/password/reset/confirm") { request, context async throws in
            try await integrity.check(.login, request, context)
            return try await email.confirmPasswordReset(request, context)
        }
        router.post("/auth/password/change") { request, context async throws in
            try await email.changePassword(request, context)
        }
        router.post("/auth/email/code") { request, context async throws in
            try await email.requestSignInCode(request, context)
        }
        router.post("/auth/email/code/confirm") { request, context async throws in
            try await integrity.check(.login, request, context)
            return try await email.confirmSignInCode(request, context)
        }
        router.post("/auth/email/change") { request, context async throws in
            try await email.requestEmailChange(request, context)
        }
        router.post("/auth/email/change/confirm") { request, context async throws in
            try await email.confirmEmailChange(request, context)
        }
        router.delete("/auth/account") { request, context async throws in
            try await accounts.deleteAccount(request, context)
        }
        router.post("/auth/account/deletion") { request, context async throws in
            try await accounts.requestDeletion(request, context)
        }
        router.post("/auth/account/deletion/confirm") { request, context async throws in
            try await accounts.confirmDeletion(request, context)
        }
        router.get("/account/delete") { request, context in accounts.showDeletionPage(request, context) }
        router.post("/account/delete") { request, context async throws in
            try await accounts.postDeletionPage(request, context)
        }
        router.post("/account/delete/confirm") { request, context async throws in
            try await accounts.postDeletionConfirmPage(request, context)
        }
        let passkeys = self.passkeys
        router.get("/.well-known/apple-app-site-association") { request, _ in
            try passkeys.appleAppSiteAssociation(request)
        }
        router.get("/.well-known/assetlinks.json") { request, _ in try passkeys.assetLinks(request) }
        router.post("/auth/passkeys/registration/options") { request, context async throws in
            try await passkeys.registrationOptions(request, context)
        }
        router.post("/auth/passkeys/registration") { request, context async throws in
            try await passkeys.register(request, context)
        }
        router.post("/auth/passkeys/signup/options") { request, context async throws in
            try await integrity.check(.register, request, context)
            return try await passkeys.signUpOptions(request, context)
        }
        router.post("/auth/passkeys/signup") { request, context async throws in
            try await integrity.check(.register, request, context)
            return try await passkeys.signUp(request, context)
        }
        router.post("/auth/passkeys/authentication/options") { request, context async throws in
            try await passkeys.authenticationOptions(request, context)
        }
        router.post("/auth/passkeys/authentication") { request, context async throws in
            try await integrity.check(.login, request, context)
            return try await passkeys.authenticate(request, context)
        }
        router.get("/auth/passkeys") { request, context async throws in try await passkeys.list(request, context) }
        router.patch("/auth/passkeys/:id") { request, context async throws in
            try await passkeys.rename(request, context)
        }
        router.delete("/auth/passkeys/:id") { request, context async throws in
            try await passkeys.delete(request, context)
        }
        let exchange = integrityEndpoints
        router.post("/integrity/challenge") { request, context async throws in
            try await exchange.challenge(request, context)
        }
        router.post("/integrity/apple/attest") { request, context async throws in
            try await exchange.attest(request, context)
        }
        router.post("/integrity/apple/assert") { request, context async throws in
            try await exchange.assert(request, context)
        }
        router.post("/integrity/android") { request, context async throws in
            try await exchange.android(request, context)
        }
        // The vend routes stay inline: the integrity check is synchronous unless an App Check token waits for keys.
        router.on(
            .get, "/moss-token",
            .syncOrAsync { request, context in
                try integrity.guarding(.moss, mode: integrity.mode(.moss), request, context) {
                    try vending.mossToken(request, context)
                }
            })
        router.on(
            .post, "/stream-token",
            .syncOrAsync { request, context in
                try integrity.guarding(.stream, mode: integrity.mode(.stream), request, context) {
                    try vending.streamToken(request, context)
                }
            })
        router.on(
            .post, "/vend/:vendor",
            .syncOrAsync { request, context in
                let mode = integrity.vendMode(request.parameters["vendor"])
                return try integrity.guarding(.vend, mode: mode, request, context) {
                    try vending.vend(request, context)
                }
            })
    }

    static let healthy = Array(#"{"status":"ok"}"#.utf8)
    static let ready = Array(#"{"status":"ready"}"#.utf8)
    static let noStore: HTTPHeaders = ["Cache-Control": "no-store"]
    /// The `/healthz` answer, built once: a probe copies no header list and allocates nothing for its response.
    static let healthyResponse = HTTPResponse.json(bytes: healthy, headers: noStore)
}
