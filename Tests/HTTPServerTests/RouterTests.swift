import Testing

@testable import HTTPServer

@Suite struct RouterTests {
    func router() -> Router {
        var router = Router()
        router.get("/healthz") { _, _ in HTTPResponse(body: Array("ok".utf8)) }
        router.delete("/auth/sessions/:id") { request, _ in
            HTTPResponse(body: Array((request.parameters["id"] ?? "").utf8))
        }
        router.post("/auth/login") { _, _ async throws in HTTPResponse(status: .created) }
        return router
    }

    @Test("matches static routes and HEAD falls back to GET")
    func staticRoutes() {
        guard case .handler(.sync, _, "/healthz") = router().match(.get, path: "/healthz") else {
            Issue.record("no sync handler")
            return
        }
        guard case .handler = router().match(.head, path: "/healthz") else {
            Issue.record("HEAD did not fall back")
            return
        }
        guard case .handler(.async, _, "/auth/login") = router().match(.post, path: "/auth/login") else {
            Issue.record("no async handler")
            return
        }
    }

    @Test("captures path parameters")
    func parameters() {
        guard
            case .handler(_, let parameters, "/auth/sessions/:id") = router().match(.delete, path: "/auth/sessions/abc")
        else {
            Issue.record("no match")
            return
        }
        #expect(parameters == ["id": "abc"])
    }

    @Test("answers 404 for unknown paths and empty parameters")
    func notFound() {
        for path in ["/nope", "/auth/sessions/", "/auth/sessions/a/b", "/healthz/"] {
            guard case .notFound = router().match(.get, path: path) else {
                Issue.record("\(path) matched")
                continue
            }
        }
    }

    @Test("answers 405 with the allowed methods")
    func methodNotAllowed() {
        guard case .methodNotAllowed(let allow) = router().match(.post, path: "/healthz") else {
            Issue.record("not 405")
            return
        }
        #expect(allow == [.get, .head])
    }

    @Test("error bodies follow API.md and escape JSON")
    func errorBody() {
        let response = HTTPResponse.error(status: .badRequest, code: "invalid_request", message: "bad \"x\"\n")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"error":"invalid_request","message":"bad \"x\"\u000a"}"#)
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test("request ids are echoed only when sane")
    func requestIDs() {
        #expect(RequestIDGenerator.isSane("abc-DEF_1.2"))
        #expect(!RequestIDGenerator.isSane(""))
        #expect(!RequestIDGenerator.isSane("a b"))
        #expect(!RequestIDGenerator.isSane(String(repeating: "a", count: 129)))
        var generator = RequestIDGenerator()
        let first = generator.next()
        #expect(first.utf8.count == 15 && RequestIDGenerator.isSane(first) && first != generator.next())
    }
}
