import Foundation
import JWT
import Store
import Synchronization
import Testing

@testable import TokenService

/// The verified-token cache: hits skip the signature, never the clock; only verified tokens get in; it stays
/// within its bound.
@Suite struct VerifiedTokenCacheTests {
    private static let secret = String(repeating: "cache-test-secret-", count: 4)
    private let user = Store.User(
        id: "u1", email: "ada@example.com", passwordHash: "", role: "user", tenantID: nil, disabledAt: nil,
        createdAt: Date(timeIntervalSince1970: 0))

    private func issuer(cache: VerifiedTokenCache) throws -> AccessTokenIssuer {
        let keys = try JWTKeySet(
            keys: [try HMACKey(kid: "k1", algorithm: .hs512, secret: Self.secret)], signingKID: "k1")
        return AccessTokenIssuer(
            keys: keys, issuer: "tokenvend", audience: "tokenvend", lifetime: 900, leeway: 30, cache: cache)
    }

    @Test("a verified token is remembered and answered from the cache until exp plus leeway, then dropped")
    func expiryRechecked() throws {
        let cache = VerifiedTokenCache()
        let tokens = try issuer(cache: cache)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try tokens.issue(for: user, sessionID: "s1", authTime: start, now: start).token
        #expect(!cache.contains(token))
        let claims = try tokens.verify(token, now: start)
        #expect(cache.contains(token))
        #expect(try tokens.verify(token, now: start.addingTimeInterval(929)) == claims)
        #expect(cache.hits.load(ordering: .relaxed) == 1)
        #expect(throws: JWTError.expired) { try tokens.verify(token, now: start.addingTimeInterval(930)) }
        #expect(!cache.contains(token))
        // Before iat (a clock set back past the leeway) a cached token is verified again and refused.
        _ = try tokens.verify(token, now: start)
        #expect(throws: JWTError.issuedInFuture) { try tokens.verify(token, now: start.addingTimeInterval(-31)) }
    }

    @Test("a token tampered in one byte never hits the cache and is never stored")
    func tamperedNeverCached() throws {
        let cache = VerifiedTokenCache()
        let tokens = try issuer(cache: cache)
        let now = Date()
        let token = try tokens.issue(for: user, sessionID: "s1", authTime: now, now: now).token
        _ = try tokens.verify(token, now: now)
        var bytes = Array(token.utf8)
        for index in [bytes.count - 2, bytes.count / 2, 5] {
            let original = bytes[index]
            bytes[index] = original == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let tampered = String(decoding: bytes, as: UTF8.self)
            #expect(throws: JWTError.self) { try tokens.verify(tampered, now: now) }
            #expect(!cache.contains(tampered))
            bytes[index] = original
        }
        #expect(cache.count == 1)
        #expect(cache.hits.load(ordering: .relaxed) == 0)
    }

    @Test("the logout check with extra leeway neither reads nor fills the cache")
    func lenientBypasses() throws {
        let cache = VerifiedTokenCache()
        let tokens = try issuer(cache: cache)
        let now = Date()
        let token = try tokens.issue(for: user, sessionID: "s1", authTime: now, now: now).token
        _ = try tokens.verify(token, now: now.addingTimeInterval(2_000), extraLeeway: 86_400)
        #expect(cache.count == 0)
    }

    @Test("however many tokens verify, the cache holds at most its capacity")
    func bounded() throws {
        let cache = VerifiedTokenCache(capacity: 64, shardCount: 4)
        let tokens = try issuer(cache: cache)
        let now = Date()
        var last = ""
        for index in 0..<1_000 {
            last = try tokens.issue(for: user, sessionID: "s\(index)", authTime: now, now: now).token
            _ = try tokens.verify(last, now: now)
            #expect(cache.count <= 64)
        }
        #expect(cache.capacity == 64)
        #expect(cache.contains(last))
        #expect(cache.count > 32)
    }

    @Test("a full shard drops its expired entries first")
    func expiredEvictedFirst() throws {
        let cache = VerifiedTokenCache(capacity: 8, shardCount: 1)
        let tokens = try issuer(cache: cache)
        let then = Date(timeIntervalSince1970: 1_800_000_000)
        let old = try (0..<6).map { index in
            let token = try tokens.issue(for: user, sessionID: "old\(index)", authTime: then, now: then).token
            _ = try tokens.verify(token, now: then)
            return token
        }
        let now = then.addingTimeInterval(2_000)
        let fresh = try (0..<3).map { index in
            let token = try tokens.issue(for: user, sessionID: "new\(index)", authTime: now, now: now).token
            _ = try tokens.verify(token, now: now)
            return token
        }
        #expect(fresh.allSatisfy(cache.contains))
        #expect(old.allSatisfy { !cache.contains($0) })
    }
}
