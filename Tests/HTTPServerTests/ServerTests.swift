import Testing

@testable import HTTPServer

@Suite(.serialized, .tags(.integration), .timeLimit(.minutes(1))) struct ServerTests {
    static let get = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test("keeps the connection alive across requests")
    func keepAlive() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            for _ in 0..<3 {
                try client.send(Self.get)
                let response = try #require(try client.readResponse())
                #expect(response.status == 200)
                #expect(response.body == #"{"status":"ok"}"#)
                #expect(response.headers["content-type"] == "application/json")
                #expect(response.headers["date"] != nil)
                #expect(response.headers["connection"] == nil)
            }
        }
    }

    @Test("answers pipelined requests in order, a slow async one before a fast sync one")
    func pipelining() async throws {
        try await withServer { _, port in
            let bodies = try await offPool {
                let client = try TestClient(port: port)
                try client.send(
                    "GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\n" + Self.get
                        + "GET /items/42 HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<4).map { _ in try client.readResponse()?.body ?? "" }
            }
            #expect(bodies == ["slow", "fast", #"{"status":"ok"}"#, "42"])
        }
    }

    @Test("a sync-or-async handler answers inline or through a task, in pipeline order")
    func syncOrAsync() async throws {
        try await withServer { _, port in
            let bodies = try await offPool {
                let client = try TestClient(port: port)
                try client.send(
                    "GET /either/later HTTP/1.1\r\nHost: t\r\n\r\nGET /either/now HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<2).map { _ in try client.readResponse()?.body ?? "" }
            }
            #expect(bodies == ["later", "now"])
        }
    }

    @Test("closes after Connection: close and after HTTP/1.0")
    func closes() async throws {
        try await withServer { _, port in
            for request in [
                "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            ] {
                let client = try TestClient(port: port)
                try client.send(request)
                let response = try #require(try client.readResponse())
                #expect(response.status == 200)
                #expect(response.headers["connection"] == "close")
                #expect(client.waitForClose())
            }
        }
    }

    @Test("reads chunked bodies with trailers")
    func chunked() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n")
            try client.send("5\r\n\":12}\r\n0\r\nX-Checksum: c1\r\n\r\n")
            let response = try #require(try client.readResponse())
            #expect(response.body == #"{"a":12}"#)
            #expect(response.headers["x-trailer"] == "c1")
        }
    }

    @Test("sends 100 Continue before reading an expected body")
    func expectContinue() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            let interim = try #require(try client.readResponse())
            #expect(interim.status == 100)
            try client.send("{}")
            #expect(try client.readResponse()?.body == "{}")
        }
    }

    @Test("answers 413 without reading the body, then closes")
    func payloadTooLarge() async throws {
        try await withServer(.init(maxBodyBytes: 1000)) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 1001\r\n\r\n")
            let response = try #require(try client.readResponse())
            #expect(response.status == 413)
            #expect(response.body.contains(#""error":"payload_too_large""#))
            #expect(response.headers["connection"] == "close")
            #expect(client.waitForClose())
        }
    }

    @Test("answers 431, 414 and 400 and never parses the rejected request's remaining bytes")
    func rejections() async throws {
        let cases: [(String, Int, String)] = [
            (
                "GET / HTTP/1.1\r\nHost: t\r\nX: " + String(repeating: "a", count: 3000) + "\r\n\r\n", 431,
                "header_too_large"
            ),
            ("GET /" + String(repeating: "a", count: 600) + " HTTP/1.1\r\nHost: t\r\n\r\n", 414, "uri_too_long"),
            ("GET /healthz HTTP/1.1\r\nHost : t\r\n\r\n" + Self.get, 400, "invalid_request"),
            ("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "not_implemented"),
        ]
        try await withServer(.init(maxHeaderBytes: 2048, maxTargetBytes: 512)) { _, port in
            for (request, status, code) in cases {
                let client = try TestClient(port: port)
                try client.send(request)
                let response = try #require(try client.readResponse())
                #expect(response.status == status)
                #expect(response.body.contains("\"error\":\"\(code)\""))
                #expect(response.headers["x-request-id"] != nil)
                #expect(client.waitForClose(), "a second response or no close after \(status)")
            }
        }
    }

    @Test("answers 408 to a head that does not arrive in time, and closes idle keep-alive connections")
    func timeouts() async throws {
        try await withServer(.init(headerTimeout: .milliseconds(200), idleTimeout: .milliseconds(200))) { _, port in
            let slow = try TestClient(port: port)
            try slow.send("GET /healthz HTTP/1.1\r\nHost:")
            let response = try #require(try slow.readResponse())
            #expect(response.status == 408)
            #expect(response.body.contains("request_timeout"))
            #expect(slow.waitForClose())

            let idle = try TestClient(port: port)
            try idle.send(Self.get)
            #expect(try idle.readResponse()?.status == 200)
            #expect(idle.waitForClose())
        }
    }

    @Test("closes a client that never reads once output stalls past the write timeout")
    func neverReads() async throws {
        try await withServer(.init(writeTimeout: .milliseconds(300), maxOutputBufferBytes: 65536)) { server, port in
            let client = try TestClient(port: port)
            let requests = String(repeating: "GET /big HTTP/1.1\r\nHost: t\r\n\r\n", count: 200)
            try? client.send(requests)
            var open = 1
            for _ in 0..<50 where open > 0 {
                try await Task.sleep(for: .milliseconds(100))
                open = await server.openConnectionCount()
            }
            #expect(open == 0)
        }
    }

    @Test("at maxConnections a new connection displaces the longest-waiting one")
    func displacement() async throws {
        try await withServer(.init(maxConnections: 4, eventLoopCount: 1)) { server, port in
            var clients: [TestClient] = []
            for _ in 0..<4 {
                let client = try TestClient(port: port)
                try client.send(Self.get)
                #expect(try client.readResponse()?.status == 200)
                clients.append(client)
            }
            let newcomer = try TestClient(port: port)
            try newcomer.send(Self.get)
            #expect(try newcomer.readResponse()?.status == 200)
            #expect(clients[0].waitForClose())
            #expect(await server.openConnectionCount() == 4)
        }
    }

    @Test("graceful shutdown closes idle connections and lets an in-flight request finish with Connection: close")
    func gracefulShutdown() async throws {
        try await withServer { server, port in
            let idle = try TestClient(port: port)
            try idle.send(Self.get)
            #expect(try idle.readResponse()?.status == 200)
            let busy = try TestClient(port: port)
            try busy.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
            try await Task.sleep(for: .milliseconds(50))
            async let stopped = server.shutdown(gracePeriod: .seconds(5))
            let response = try #require(try await offPool { try busy.readResponse() })
            #expect(response.body == "slow")
            #expect(response.headers["connection"] == "close")
            #expect(try await offPool { idle.waitForClose() })
            #expect(await stopped == .drained)
            #expect(throws: (any Error).self) { try TestClient(port: port) }
        }
    }

    @Test("echoes a sane X-Request-Id and generates one otherwise")
    func requestID() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: abc-123_x.y\r\n\r\n")
            #expect(try client.readResponse()?.headers["x-request-id"] == "abc-123_x.y")
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: bad id!\r\n\r\n")
            let generated = try #require(try client.readResponse()?.headers["x-request-id"])
            #expect(generated != "bad id!" && generated.utf8.count == 15)
            let longest = String(repeating: "a", count: 128)
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: \(longest)\r\n\r\n")
            #expect(try client.readResponse()?.headers["x-request-id"] == longest)
            // One over the maximum is not refused: the request is served with a generated id.
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: \(longest)b\r\n\r\n")
            let replaced = try #require(try client.readResponse())
            #expect(replaced.status == 200)
            #expect(replaced.headers["x-request-id"]?.utf8.count == 15)
        }
    }

    @Test("maps thrown errors to API.md bodies: HTTPResponseError as declared, anything else 500")
    func errors() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            try client.send("GET /limited HTTP/1.1\r\nHost: t\r\n\r\nGET /broken HTTP/1.1\r\nHost: t\r\n\r\n")
            let limited = try #require(try client.readResponse())
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] == "7")
            #expect(limited.body == #"{"error":"rate_limited","message":"Slow down."}"#)
            let broken = try #require(try client.readResponse())
            #expect(broken.status == 500)
            #expect(broken.body == #"{"error":"internal_error","message":"Internal server error."}"#)
            try client.send("DELETE /healthz HTTP/1.1\r\nHost: t\r\n\r\nHEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let notAllowed = try #require(try client.readResponse())
            #expect(notAllowed.status == 405)
            #expect(notAllowed.headers["allow"] == "GET, HEAD")
            // TRACE (RFC 9110) and QUERY (RFC 10008) are known methods (so not 501) that no route takes: 405.
            let other = try TestClient(port: port)
            try other.send("TRACE /healthz HTTP/1.1\r\nHost: t\r\n\r\nQUERY /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            for _ in 0..<2 {
                let answer = try #require(try other.readResponse())
                #expect(answer.status == 405)
                #expect(answer.headers["allow"] == "GET, HEAD")
            }
        }
    }
}
