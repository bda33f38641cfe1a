import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

@Suite struct ProviderKeyCacheTests {
    @Test(
        "an unknown kid after rotation is picked up with exactly one fetch for 50 concurrent verifications",
        .timeLimit(.minutes(1)))
    func rotationSingleFlight() async throws {
        let fixture = try Fixture()
        _ = try await fixture.verify(try Fixture.token())
        #expect(fixture.fetcher.callCount == 1)
        fixture.fetcher.serve(Fixture.url, body: TestIDToken.jwks([Fixture.rotated.publicJWK]))
        // A fetch at most once a minute: the rotation is looked for once the minute since the first fetch is over.
        fixture.clock.advance(61)
        fixture.fetcher.hold()
        let token = try Fixture.token(Fixture.claims(at: fixture.clock.now), key: Fixture.rotated)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask { try await fixture.verify(token).subject }
            }
            // Every caller is waiting for the one fetch under way before it is let go.
            let deadline = ContinuousClock.now + .seconds(30)
            while fixture.cache.waitingCallers(url: Fixture.url) < 50 || fixture.fetcher.heldCount < 1 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("only \(fixture.cache.waitingCallers(url: Fixture.url)) callers wait for the fetch")
                    break
                }
                await Task.yield()
            }
            fixture.fetcher.release()
            var subjects: [String] = []
            for try await subject in group { subjects.append(subject) }
            #expect(subjects.count == 50)
        }
        #expect(fixture.fetcher.callCount == 2)
    }

    @Test("a second unknown kid within the minute makes no fetch; after the minute it does")
    func refetchOncePerMinute() async throws {
        let fixture = try Fixture()
        _ = try await fixture.verify(try Fixture.token())
        // Within the minute of the first fetch an unknown kid makes no request (the keys were just fetched).
        let early = try TestIDToken.rs256(Fixture.claims(), key: Fixture.rsa, header: ["alg": "RS256", "kid": "x-0"])
        #expect(await fixture.failure(early) == .rejected(.unknownKID))
        #expect(fixture.fetcher.callCount == 1)
        fixture.clock.advance(61)
        let unknown = try TestIDToken.rs256(
            Fixture.claims(at: fixture.clock.now), key: Fixture.rsa, header: ["alg": "RS256", "kid": "x-1"])
        #expect(await fixture.failure(unknown) == .rejected(.unknownKID))
        #expect(fixture.fetcher.callCount == 2)
        fixture.clock.advance(30)
        let other = try TestIDToken.rs256(
            Fixture.claims(at: fixture.clock.now), key: Fixture.rsa, header: ["alg": "RS256", "kid": "x-2"])
        #expect(await fixture.failure(other) == .rejected(.unknownKID))
        #expect(fixture.fetcher.callCount == 2)
        // A rotation published now is picked up once the minute is over.
        fixture.fetcher.serve(Fixture.url, body: TestIDToken.jwks([Fixture.rsa.publicJWK, Fixture.rotated.publicJWK]))
        let rotated = try Fixture.token(Fixture.claims(at: fixture.clock.now), key: Fixture.rotated)
        #expect(await fixture.failure(rotated) == .rejected(.unknownKID))
        #expect(fixture.fetcher.callCount == 2)
        fixture.clock.advance(31)
        #expect(await fixture.failure(rotated) == nil)
        #expect(fixture.fetcher.callCount == 3)
    }

    @Test("provider down with a warm cache: served fresh, then stale for an hour past expiry, refused after")
    func warmCacheProviderDown() async throws {
        let fixture = try Fixture()
        _ = try await fixture.verify(try Fixture.token())
        fixture.fetcher.fail(Fixture.url)
        // Fresh (no max-age: 1 hour): no fetch at all.
        fixture.clock.advance(3_599)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 1)
        // Expired: the refresh fails, the keys last fetched still serve.
        fixture.clock.advance(2)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 2)
        // Within the minute: no new attempt.
        fixture.clock.advance(30)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 2)
        // Just under an hour past expiry: another attempt, still served stale.
        fixture.clock.advance(3_600 - 32 - 1)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 3)
        // Past the hour: refused as unavailable, with the seconds until the next attempt.
        fixture.clock.advance(2)
        let late = try Fixture.token(Fixture.claims(at: fixture.clock.now))
        #expect(await fixture.failure(late) == .providerUnavailable(retryAfter: 58))
        #expect(fixture.fetcher.callCount == 3)
        // The provider is back: the next allowed attempt installs fresh keys.
        fixture.fetcher.serve(Fixture.url, body: TestIDToken.jwks([Fixture.rsa.publicJWK]))
        fixture.clock.advance(58)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 4)
        let failures = fixture.events.all.filter {
            if case .fetchFailed(_, _, holdingKeys: true) = $0 { return true }
            return false
        }
        #expect(failures.count == 2)
    }

    @Test("cold cache and provider down: providerUnavailable with Retry-After, at most one attempt a minute")
    func coldCacheProviderDown() async throws {
        let fixture = try Fixture()
        fixture.fetcher.fail(Fixture.url, with: .timedOut)
        let token = try Fixture.token()
        #expect(await fixture.failure(token) == .providerUnavailable(retryAfter: 60))
        #expect(fixture.fetcher.callCount == 1)
        fixture.clock.advance(20)
        #expect(await fixture.failure(token) == .providerUnavailable(retryAfter: 40))
        #expect(fixture.fetcher.callCount == 1)
        fixture.clock.advance(40)
        #expect(await fixture.failure(token) == .providerUnavailable(retryAfter: 60))
        #expect(fixture.fetcher.callCount == 2)
        #expect(
            fixture.events.all.first == .fetchFailed(url: Fixture.url, error: .timedOut, holdingKeys: false))
    }

    @Test(
        "max-age is clamped to 5 minutes–24 hours; none means 1 hour",
        arguments: [(Int?.some(10), 300), (86_400 * 30, 86_400), (nil, 3_600), (1_800, 1_800)])
    func maxAgeClamping(maxAge: Int?, kept: Int) async throws {
        let fixture = try Fixture(maxAge: maxAge)
        _ = try await fixture.verify(try Fixture.token())
        #expect(fixture.events.all.contains(.fetched(url: Fixture.url, keyCount: 2, skipped: [], lifetime: kept)))
        fixture.clock.advance(TimeInterval(kept - 1))
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 1)
        fixture.clock.advance(2)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 2)
    }

    @Test("a JWKS with unusable keys next to a good one: the good key verifies, the others are reported")
    func unusableKeysBesideAGoodOne() async throws {
        let rsa = Fixture.rsa.publicJWK
        let n = rsa["n"] ?? .null
        let keys: [JSONObject] = [
            ["kty": "RSA", "kid": "enc-1", "use": "enc", "alg": "RSA-OAEP", "n": n, "e": "AQAB"],
            ["kty": "oct", "kid": "hmac", "k": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"],
            ["kty": "RSA", "kid": "ps-1", "alg": "PS256", "n": n, "e": "AQAB"],
            ["kty": "EC", "kid": "p384", "crv": "P-384", "x": "AA", "y": "AA"],
            rsa,
        ]
        let fixture = try Fixture(keys: keys)
        #expect(try await fixture.verify(try Fixture.token()).subject == "001234.abcdef")
        guard case .fetched(_, let count, let skipped, _)? = fixture.events.all.first else {
            Issue.record("no fetched event: \(fixture.events.all)")
            return
        }
        #expect(count == 1)
        #expect(skipped.map(\.index) == [0, 1, 2, 3])
        #expect(skipped.map(\.kid) == ["enc-1", "hmac", "ps-1", "p384"])
    }

    @Test("a key set with no usable key counts as a failed fetch: cold → unavailable, warm → keys kept")
    func noUsableKey() async throws {
        let fixture = try Fixture(keys: [["kty": "RSA", "kid": "enc", "use": "enc", "n": "AQAB", "e": "AQAB"]])
        #expect(await fixture.failure(try Fixture.token()) == .providerUnavailable(retryAfter: 60))
        guard case .unusableKeySet(_, _, holdingKeys: false)? = fixture.events.all.first else {
            Issue.record("no unusableKeySet event: \(fixture.events.all)")
            return
        }
        fixture.fetcher.serve(Fixture.url, body: TestIDToken.jwks([Fixture.rsa.publicJWK]))
        fixture.clock.advance(60)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        // A garbage document later does not evict the keys held.
        fixture.fetcher.serve(Fixture.url, body: Array("<html>".utf8))
        fixture.clock.advance(3_601)
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(at: fixture.clock.now))) == nil)
        #expect(fixture.fetcher.callCount == 3)
    }

    @Test("Cache-Control max-age is read from the header; no-store and no-cache mean the minimum")
    func cacheControl() {
        #expect(JWKSDocument.maxAge(cacheControl: "public, max-age=21447, must-revalidate, no-transform") == 21_447)
        #expect(JWKSDocument.maxAge(cacheControl: "max-age = 60") == 60)
        #expect(JWKSDocument.maxAge(cacheControl: "MAX-AGE=\"90\"") == 90)
        #expect(JWKSDocument.maxAge(cacheControl: "s-maxage=10") == nil)
        #expect(JWKSDocument.maxAge(cacheControl: "max-age=abc") == nil)
        #expect(JWKSDocument.maxAge(cacheControl: "max-age=99999999999999999999") == Int(Int32.max))
        #expect(JWKSDocument.maxAge(cacheControl: "no-store") == 0)
        #expect(JWKSDocument.maxAge(cacheControl: "private") == nil)
        #expect(JWKSDocument(body: [], cacheControl: nil).maxAge == nil)
        #expect(ProviderKeyCache.Limits().lifetime(maxAge: 0) == 300)
    }
}
