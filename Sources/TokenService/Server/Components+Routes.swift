import AuthAPI
import Foundation
import HTTPServer
import Store

extension Components {
    /// Every route of API.md.
    func register(on router: inout Router, database: Store.Database) {
        let auth = self.auth
        let vending = self.vending
        let metrics = self.metrics
        let discovery = self.discovery
        router.get("/healthz") { _, _ in .json(bytes: Self.healthy) }
        router.get("/readyz") { _, _ async in
            do {
                try await database.ping()
                return .json(bytes: Self.ready)
            } catch {
                return .error(
                    status: .serviceUnavailable, code: ErrorCode.unavailable.rawValue,
                    message: "The database is not answering.",
                    headers: ["Retry-After": "5"])
            }
        }
        router.get("/metrics") { _, _ in
            HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: metrics.exposition())
        }
        router.get("/.well-known/jwks.json") { request, _ in discovery.jwks(request) }
        router.get("/.well-known/openid-configuration") { request, _ in discovery.openID(request) }
        router.post("/auth/register") { request, context async throws in try await auth.register(request, context) }
        router.post("/auth/login") { request, context async throws in try await auth.login(request, context) }
        router.post("/auth/refresh") { request, context async throws in try await auth.refresh(request, context) }
        router.post("/auth/logout") { request, context async throws in try await auth.logout(request, context) }
        router.get("/auth/me") { request, context in try auth.me(request, context) }
        router.get("/auth/sessions") { request, context async throws in
            try await auth.listSessions(request, context)
        }
        router.delete("/auth/sessions/:id") { request, context async throws in
            try await auth.revokeSession(request, context)
        }
        router.on(.get, "/moss-token", .syncOrAsync { request, context in try vending.mossToken(request, context) })
        router.post("/stream-token") { request, context in try vending.streamToken(request, context) }
    }

    static let healthy = Array(#"{"status":"ok"}"#.utf8)
    static let ready = Array(#"{"status":"ready"}"#.utf8)
}
