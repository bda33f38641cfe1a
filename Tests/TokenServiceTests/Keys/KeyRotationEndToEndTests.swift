import Foundation
import JWT
import StrictJSON
import Synchronization
import Testing
import TokenService
import TokenServiceTesting

/// The rotation runbook of docs/operations/keys.md end to end: servers restarted on one database with successive
/// key configurations (standby → current → previous → revoked), the new one up before the old one stops, while
/// a client keeps calling and a third-party verifier keeps checking tokens against the published set.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct KeyRotationEndToEndTests {
    /// The server the client talks to now, and every answer it got, by the token's kid.
    final class Traffic: Sendable {
        struct Answer: Sendable {
            let step: Int
            let kid: String
            let status: Int
        }

        /// The server requests go to and the step of the rotation it runs, switched together.
        let target = Mutex<(server: TestServer?, step: Int)>((nil, 0))
        let answers = Mutex<[Answer]>([])
        let running = Mutex(true)
        /// One element per recorded answer, so the test waits for traffic instead of sleeping.
        private let recorded: AsyncStream<Void>
        private let recordedContinuation: AsyncStream<Void>.Continuation

        init() {
            let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            recorded = stream
            recordedContinuation = continuation
        }

        /// Records an answer and wakes the waiter.
        func record(_ answer: Answer) {
            answers.withLock { $0.append(answer) }
            recordedContinuation.yield()
        }

        /// Returns once `condition` holds for the answers recorded so far, checking after each new answer.
        /// (Only the test's own task waits, one wait at a time.)
        func waitUntil(_ condition: ([Answer]) -> Bool) async {
            var events = recorded.makeAsyncIterator()
            while !condition(answers.withLock { $0 }) {
                guard await events.next() != nil else { return }
            }
        }
    }

    private static func kid(of token: String) -> String {
        let header = try? JWTKeySet.decode(token).header
        return header?["kid"]?.stringValue ?? "?"
    }

    /// A third-party verifier: fetches the set and verifies `token` with it, as PyJWKClient would.
    private static func verifiesWithPublishedSet(_ token: String, server: TestServer) async throws -> Bool {
        let body = try await server.request("GET", "/.well-known/jwks.json").body
        let set = try JWKSet(json: Array(body))
        let keys = try set.keys.map { try JWTKey(jwk: $0) }
        let verifier = try JWTKeySet(keys: keys, signingKID: nil)
        return (try? verifier.verify(token, options: VerificationOptions(issuer: "tokenvend", type: "at+jwt"))) != nil
    }

    @Test("standby → current → previous → revoked: no request fails except the revoked key's tokens at the end")
    func rotation() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try KeyFixtures.generate("old", .es256, state: "current")
        let new = try KeyFixtures.generate("new", .edDSA, state: "standby")
        func configuration(old oldState: String, new newState: String?) throws -> [String: String] {
            var entries = [KeyFixtures.Entry(key: old.key, state: oldState)]
            if let newState { entries.append(KeyFixtures.Entry(key: new.key, state: newState)) }
            return try KeyFixtures.environment(entries).merging([
                "TOKENVEND_DATABASE_PATH": folder.appending(path: "shared.sqlite").path,
                "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "100000",
            ]) { $1 }
        }
        let steps: [(old: String, new: String?)] = [
            ("current", nil), ("current", "standby"), ("previous", "current"), ("revoked", "current"),
        ]
        let traffic = Traffic()
        var current = try await TestServer(environment: try configuration(old: "current", new: nil))
        traffic.target.withLock { $0 = (current, 0) }
        let login = try await current.signUp()
        let tokens = Mutex([login.accessToken])  // every access token the client ever got
        let refreshToken = Mutex(login.refreshToken)

        // The client: calls with each token it holds, and refreshes now and then (a new token per refresh).
        let client = Task {
            var round = 0
            while traffic.running.withLock({ $0 }) {
                round += 1
                for token in tokens.withLock({ $0 }) {
                    // Each request goes to the newest server, as a load balancer would send it.
                    let (target, step) = traffic.target.withLock { $0 }
                    guard let server = target else { continue }
                    let status =
                        (try? await server.request(
                            "GET", "/auth/me", headers: ["Authorization": "Bearer \(token)"]))?.status ?? -1
                    traffic.record(.init(step: step, kid: Self.kid(of: token), status: status))
                }
                let (target, step) = traffic.target.withLock { $0 }
                if round % 5 == 0, let server = target {
                    let body = #"{"refreshToken":"\#(refreshToken.withLock { $0 })"}"#
                    let answer = try? await server.request("POST", "/auth/refresh", json: body)
                    let status = answer?.status ?? -1
                    traffic.record(.init(step: step, kid: "refresh", status: status))
                    if let object = try? answer?.object(), let access = object["accessToken"] as? String,
                        let refresh = object["refreshToken"] as? String
                    {
                        refreshToken.withLock { $0 = refresh }
                        tokens.withLock { $0.append(access) }
                    }
                }
            }
        }

        for (index, step) in steps.enumerated().dropFirst() {
            // Traffic at the previous step first: a few answers from the server that is about to be replaced.
            await traffic.waitUntil { answers in answers.filter { $0.step == index - 1 }.count >= 6 }
            // Rolling restart: the next server is up on the same database before the previous one stops.
            let next = try await TestServer(environment: try configuration(old: step.old, new: step.new))
            traffic.target.withLock { $0 = (next, index) }
            // The load balancer's deregistration: the client sends one request at a time, so once it has an
            // answer from the new server, no request to the old one is still in flight.
            await traffic.waitUntil { answers in answers.contains { $0.step == index } }
            await current.stop()
            current = next
            let published = try JWKSet(json: Array(try await next.request("GET", "/.well-known/jwks.json").body))
            let expected: [String] =
                switch index {
                case 1: ["old", "new"]
                case 2: ["new", "old"]
                default: ["new"]
                }
            #expect(published.keys.compactMap(\.kid) == expected, "published set at step \(index)")
            let fresh = try await next.logIn(email: login.email)
            tokens.withLock { $0.append(fresh.accessToken) }
            #expect(Self.kid(of: fresh.accessToken) == (index >= 2 ? "new" : "old"))
            let verifiable = try await Self.verifiesWithPublishedSet(fresh.accessToken, server: next)
            #expect(verifiable, "a verifier with the published set accepts new tokens at step \(index)")
        }
        // Enough traffic at the last step: both keys' tokens tried, and a refresh since the promotion.
        await traffic.waitUntil { answers in
            let last = answers.filter { $0.step == 3 }
            return last.count > 5 && last.contains { $0.kid == "old" } && last.contains { $0.kid == "new" }
                && answers.contains { $0.kid == "refresh" && $0.step >= 2 }
        }
        traffic.running.withLock { $0 = false }
        await client.value
        await current.stop()

        let answers = traffic.answers.withLock { $0 }
        #expect(answers.filter { $0.step == 3 }.count > 5)
        for answer in answers {
            let expected = answer.step == 3 && answer.kid == "old" ? 401 : 200
            #expect(answer.status == expected, "step \(answer.step), token of \(answer.kid): \(answer.status)")
        }
        #expect(answers.contains { $0.step == 3 && $0.kid == "old" && $0.status == 401 })
        #expect(answers.contains { $0.step == 3 && $0.kid == "new" && $0.status == 200 })
        #expect(answers.contains { $0.kid == "refresh" && $0.step >= 2 })
    }
}
