import Foundation
import HTTPServerTesting
import IdentityProviders
import IdentityProvidersTesting
import Testing

/// `AppleRESTClient` against the fake Sign in with Apple (scripts/fake_apple.py, whose PyJWT checks the client
/// secret) and against hostile token endpoints.
@Suite(.timeLimit(.minutes(1)))
struct AppleRESTClientTests {
    /// A client of the configuration `AppleTestKey` makes, on `base`.
    static func client(_ base: String, deadline: Duration = .seconds(5)) throws -> AppleRESTClient {
        AppleRESTClient(configuration: try AppleTestKey.configuration(base: base), deadline: deadline)
    }

    /// A client of `apple`'s own `.p8` and identifiers.
    static func client(_ apple: FakeApple) throws -> AppleRESTClient {
        let pem = try String(contentsOfFile: apple.privateKeyFile, encoding: .utf8)
        return AppleRESTClient(
            configuration: try AppleRESTConfiguration(
                teamId: apple.teamId, keyId: apple.keyId, clientId: apple.clientId, privateKeyPEM: pem,
                tokenURL: apple.baseURL + "/auth/token", revokeURL: apple.baseURL + "/auth/revoke"))
    }

    /// The failure of `result`, if any.
    static func failure<T>(_ result: Result<T, AppleRESTFailure>) -> AppleRESTFailure? {
        guard case .failure(let failure) = result else { return nil }
        return failure
    }

    @Test("a code is redeemed for Apple's refresh token; PyJWT accepted the client secret; bad codes are refused")
    func redeem() async throws {
        let apple = try await FakeApple.start()
        defer { apple.stop() }
        let client = try Self.client(apple)
        #expect(await client.redeem(code: "c-1") == .success("rt-c-1"))
        #expect(await client.redeem(code: "bad-code") == .failure(.refused(status: 400, error: "invalid_grant")))
    }

    @Test("a revocation posts client_id, a valid secret, the token and token_type_hint=refresh_token")
    func revoke() async throws {
        let apple = try await FakeApple.start()
        defer { apple.stop() }
        let client = try Self.client(apple)
        #expect(try await client.revoke(refreshToken: "rt-1").get() == ())
        let revocation = try await apple.nextRevocation()
        #expect(revocation.token == "rt-1")
        #expect(revocation.clientId == apple.clientId)
        #expect(revocation.tokenTypeHint == "refresh_token")
        #expect(revocation.secretValid)
        try await apple.failNextRevocations(status: 503, count: 1)
        #expect(Self.failure(await client.revoke(refreshToken: "rt-1")) == .serverError(status: 503))
    }

    @Test("a secret signed with another key is refused by the fake: 400 invalid_client, not retryable")
    func wrongKey() async throws {
        let apple = try await FakeApple.start()
        defer { apple.stop() }
        let client = AppleRESTClient(
            configuration: try AppleRESTConfiguration(
                teamId: apple.teamId, keyId: apple.keyId, clientId: apple.clientId,
                privateKeyPEM: try AppleTestKey.privatePEM, tokenURL: apple.baseURL + "/auth/token",
                revokeURL: apple.baseURL + "/auth/revoke"))
        let result = await client.redeem(code: "c-1")
        #expect(result == .failure(.refused(status: 400, error: "invalid_client")))
        if case .failure(let failure) = result { #expect(!failure.isRetryable) }
    }

    @Test(
        "hostile token answers give typed failures",
        arguments: [
            (200, "<html>not json</html>", AppleRESTFailure.malformedAnswer),
            (200, #"{"access_token":"a","token_type":"Bearer"}"#, .missingRefreshToken),
            (200, #"{"refresh_token":""}"#, .missingRefreshToken),
            (200, #"{"refresh_token":42}"#, .missingRefreshToken),
            (400, #"{"error":"invalid_grant"}"#, .refused(status: 400, error: "invalid_grant")),
            (401, #"{"error":"<script>rt-secret</script>"}"#, .refused(status: 401, error: nil)),
            (403, "", .refused(status: 403, error: nil)),
            (500, "oops", .serverError(status: 500)),
            (503, #"{"error":"x"}"#, .serverError(status: 503)),
            (429, "", .serverError(status: 429)),
        ])
    func hostile(status: Int, body: String, expected: AppleRESTFailure) async throws {
        try await withFakeUpstream(always: .init(status: status, body: body)) { upstream in
            let client = try Self.client("http://127.0.0.1:\(upstream.port)/identity")
            #expect(await client.redeem(code: "c") == .failure(expected))
        }
    }

    @Test("retries are for timeouts, connection failures and 5xx; refusals and malformed answers end")
    func retryable() {
        #expect(AppleRESTFailure.timedOut.isRetryable)
        #expect(AppleRESTFailure.unreachable("x").isRetryable)
        #expect(AppleRESTFailure.serverError(status: 502).isRetryable)
        #expect(!AppleRESTFailure.refused(status: 400, error: nil).isRetryable)
        #expect(!AppleRESTFailure.malformedAnswer.isRetryable)
        #expect(!AppleRESTFailure.tooLarge.isRetryable)
    }

    @Test("an endless answer stops at 64 KiB, a silent one at the deadline, a closed port at once")
    func limits() async throws {
        let endless = try HostileUpstream(always: .endlessBody(status: 200, contentLength: nil))
        defer { endless.shutdown() }
        #expect(
            await (try Self.client("http://127.0.0.1:\(endless.url.port ?? 0)")).redeem(code: "c")
                == .failure(.tooLarge))
        let silent = try HostileUpstream(always: .stall(.seconds(10)))
        defer { silent.shutdown() }
        let started = ContinuousClock.now
        let timedOut = await try Self.client("http://127.0.0.1:\(silent.url.port ?? 0)", deadline: .milliseconds(300))
            .revoke(refreshToken: "rt")
        #expect(Self.failure(timedOut) == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
        let closed = try HostileUpstream(always: .closeWithoutAnswer)
        let port = closed.url.port ?? 0
        closed.shutdown()
        let refused = await try Self.client("http://127.0.0.1:\(port)").revoke(refreshToken: "rt")
        #expect(Self.failure(refused)?.isRetryable == true)
    }
}
