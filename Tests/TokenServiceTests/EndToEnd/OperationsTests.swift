import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct OperationsTests {
    @Test("healthz and readyz answer 200; unknown paths 404; wrong methods 405 with Allow")
    func probesAndRouting() async throws {
        try await withTestServer { server in
            let health = try await server.request("GET", "/healthz")
            #expect(health.status == 200)
            #expect(health.text == #"{"status":"ok"}"#)
            #expect(try await server.request("GET", "/readyz").status == 200)
            let missing = try await server.request("GET", "/nope")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            let wrong = try await server.request("GET", "/auth/login")
            #expect(wrong.status == 405)
            #expect(wrong.errorCode == "method_not_allowed")
            #expect(wrong.headers["allow"]?.contains("POST") == true)
        }
    }

    @Test(
        "healthz, readyz and metrics answer Cache-Control: no-store, so no cache hides what they report",
        arguments: [TestServer.Mode.socket, .router])
    func probesAreNotStored(mode: TestServer.Mode) async throws {
        try await withTestServer(mode: mode) { server in
            for path in ["/healthz", "/readyz", "/metrics"] {
                let response = try await server.request("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["cache-control"] == "no-store", "\(path)")
            }
        }
    }

    @Test(
        "successful probes write no access line by default but are counted; log.healthChecks true logs them",
        arguments: [false, true])
    func probeAccessLines(logsHealthChecks: Bool) async throws {
        let environment = logsHealthChecks ? ["TOKENVEND_LOG_HEALTH_CHECKS": "true"] : [:]
        try await withTestServer(environment: environment) { server in
            #expect(server.configuration.log.healthChecks == logsHealthChecks)
            for _ in 0..<3 { #expect(try await server.request("GET", "/healthz").status == 200) }
            #expect(try await server.request("GET", "/readyz").status == 200)
            // A line that is always written, after the probes: once it is in the log, theirs would be too.
            #expect(try await server.request("GET", "/nope").status == 404)
            let samples = try PrometheusText.parse(try await server.request("GET", "/metrics").text)
            #expect(samples[#"tokenvend_http_requests_total{route="/healthz",method="GET",status="200"}"#] == 3)
            #expect(samples[#"tokenvend_http_requests_total{route="/readyz",method="GET",status="200"}"#] == 1)
            var logs = server.logs()
            for _ in 0..<100 where !logs.contains(#""http.path":"/nope""#) {
                try await Task.sleep(for: .milliseconds(20))
                logs = server.logs()
            }
            #expect(logs.contains(#""http.path":"/nope""#))
            let probeLines = logs.split(separator: "\n").filter {
                $0.contains(#""http.path":"/healthz""#) || $0.contains(#""http.path":"/readyz""#)
            }
            #expect(probeLines.count == (logsHealthChecks ? 4 : 0))
        }
    }

    @Test("every response carries X-Request-Id: a sane one is echoed, anything else replaced")
    func requestIDs() async throws {
        try await withTestServer { server in
            let echoed = try await server.request("GET", "/healthz", headers: ["X-Request-Id": "abc-123.def_4"])
            #expect(echoed.headers["x-request-id"] == "abc-123.def_4")
            let replaced = try await server.request("GET", "/healthz", headers: ["X-Request-Id": "bad id <script>"])
            let generated = try #require(replaced.headers["x-request-id"])
            #expect(generated != "bad id <script>" && !generated.isEmpty)
            let missing = try await server.request("GET", "/nope")
            #expect(missing.headers["x-request-id"]?.isEmpty == false)
        }
    }

    @Test("metrics are valid Prometheus text and count requests, logins, tokens and revocations")
    func metrics() async throws {
        try await withTestServer { server in
            let user = try await server.signUp()
            _ = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(user.email)","password":"wrong password!"}"#)
            _ = try await server.request("POST", "/stream-token", headers: user.bearer)
            _ = try await server.request("GET", "/nope")
            _ = try await server.request("POST", "/auth/logout", headers: user.bearer)
            let response = try await server.request("GET", "/metrics")
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
            let samples = try PrometheusText.parse(response.text)
            #expect(samples[#"tokenvend_logins_total{result="succeeded"}"#] == 1)
            #expect(samples[#"tokenvend_logins_total{result="failed"}"#] == 1)
            #expect(samples[#"tokenvend_tokens_issued_total{kind="stream"}"#] == 1)
            #expect(samples[#"tokenvend_tokens_issued_total{kind="access"}"#] == 1)
            #expect(samples[#"tokenvend_sessions_revoked_total{reason="logout"}"#] == 1)
            #expect(samples[#"tokenvend_http_requests_total{route="/stream-token",method="POST",status="200"}"#] == 1)
            #expect(samples[#"tokenvend_http_requests_total{route="unmatched",method="GET",status="404"}"#] == 1)
            #expect(samples["tokenvend_password_hash_queue_depth"] == 0)
            #expect((samples[#"tokenvend_http_request_duration_seconds_count{route="/auth/login"}"#] ?? 0) >= 2)
        }
    }

    @Test("the logs of a whole session never contain a password, token, key, hash or Authorization value")
    func logsHoldNoSecrets() async throws {
        let stream = ["TOKENVEND_LOG_LEVEL": "trace"]
        try await withTestServer(environment: stream) { server in
            let user = try await server.signUp(email: "secret-keeper@example.com")
            let refreshed = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(user.refreshToken)"}"#)
            let refreshBody = try refreshed.object()
            let streamToken = try await server.request("POST", "/stream-token", headers: user.bearer).object()["token"]
            _ = try await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(user.refreshToken)"}"#)
            _ = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(user.email)","password":"wrong-\#(TestServer.password)"}"#)
            _ = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer not.a.token"])
            _ = try await server.request("POST", "/auth/logout", headers: user.bearer)
            let logs = server.logs()
            #expect(logs.contains("\"http.path\":\"/auth/login\""))
            var secrets = [
                TestServer.password, user.accessToken, user.refreshToken, TestServer.streamSecret, "not.a.token",
                "wrong-\(TestServer.password)", "$argon2id$",
            ]
            secrets += [refreshBody["refreshToken"], refreshBody["accessToken"], streamToken].compactMap {
                $0 as? String
            }
            if let key = server.configuration.accessToken.keys.first?.secret.value { secrets.append(key) }
            if let refreshSecret = server.configuration.refreshToken.secret?.value { secrets.append(refreshSecret) }
            for secret in secrets {
                #expect(!logs.contains(secret), "a secret appears in the logs")
            }
            // Every line is one JSON object.
            for line in logs.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
            }
        }
    }
}

/// A strict reader of the Prometheus text exposition format (0.0.4) for the tests.
enum PrometheusText {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sample name with labels → value. Throws on a line that is neither a comment nor a well-formed sample.
    static func parse(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        var typed = Set<String>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3])
                else {
                    throw Failure(description: "bad TYPE line: \(line)")
                }
                guard typed.insert(String(parts[2])).inserted else { throw Failure(description: "TYPE twice: \(line)") }
                continue
            }
            if line.hasPrefix("# HELP ") { continue }
            guard let space = line.lastIndex(of: " ") else { throw Failure(description: "no value: \(line)") }
            let name = String(line[..<space])
            let rawValue = line[line.index(after: space)...]
            guard let value = rawValue == "+Inf" ? Double.infinity : Double(rawValue) else {
                throw Failure(description: "bad value: \(line)")
            }
            let metric = name.prefix { $0 != "{" }
            guard !metric.isEmpty, metric.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }) else {
                throw Failure(description: "bad metric name: \(line)")
            }
            guard samples[name] == nil else { throw Failure(description: "duplicate sample: \(line)") }
            samples[name] = value
        }
        return samples
    }
}
