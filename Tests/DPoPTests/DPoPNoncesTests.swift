import Cryptography
import DPoP
import Foundation
import Testing

@Suite struct DPoPNoncesTests {
    static let secret = Array("0123456789abcdef0123456789abcdef".utf8)
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // a multiple of 300

    func at(_ seconds: TimeInterval) -> Date { Self.start.addingTimeInterval(seconds) }

    @Test("the nonce is base64url of HMAC-SHA256 of the prefix and the decimal step")
    func format() throws {
        let nonces = DPoPNonces(secret: Self.secret)
        let mac = try HMAC(algorithm: .sha256, key: Self.secret)
        let step = 1_767_225_600 / 300
        let expected = Base64URL.encode(try mac.authenticationCode(for: Array("tokenvend-dpop-nonce:\(step)".utf8)))
        #expect(nonces.current(now: at(0)) == expected)
        #expect(nonces.current(now: at(299.9)) == expected)
        #expect(nonces.current(now: at(300)) != expected)
        #expect(!expected.contains("="))
    }

    @Test("accepts the current and the previous step's nonce, refuses one two steps old")
    func window() {
        let nonces = DPoPNonces(secret: Self.secret)
        let first = nonces.current(now: at(10))
        #expect(nonces.accepts(first, now: at(10)))
        #expect(nonces.accepts(first, now: at(299)))
        #expect(nonces.accepts(first, now: at(300)))
        #expect(nonces.accepts(first, now: at(599)))
        #expect(!nonces.accepts(first, now: at(600)))
        // A nonce of the next step is not accepted early.
        let next = nonces.current(now: at(300))
        #expect(!nonces.accepts(next, now: at(299)))
        #expect(nonces.accepts(next, now: at(300)))
    }

    @Test("refuses another secret's nonce, an empty one and a truncated one")
    func refusals() {
        let nonces = DPoPNonces(secret: Self.secret)
        let other = DPoPNonces(secret: Array("fedcba9876543210fedcba9876543210".utf8))
        let theirs = other.current(now: at(0))
        #expect(theirs != nonces.current(now: at(0)))
        #expect(!nonces.accepts(theirs, now: at(0)))
        #expect(!nonces.accepts("", now: at(0)))
        #expect(!nonces.accepts(String(nonces.current(now: at(0)).dropLast()), now: at(0)))
    }

    @Test("two instances with one secret agree; a shorter step rotates sooner")
    func instancesAgree() {
        let one = DPoPNonces(secret: Self.secret)
        let two = DPoPNonces(secret: Self.secret)
        #expect(one.current(now: at(42)) == two.current(now: at(42)))
        #expect(two.accepts(one.current(now: at(42)), now: at(400)))
        let fast = DPoPNonces(secret: Self.secret, stepSeconds: 10)
        let nonce = fast.current(now: at(0))
        #expect(fast.accepts(nonce, now: at(19)))
        #expect(!fast.accepts(nonce, now: at(20)))
    }

    @Test("the clock moving back asks for the older step's nonce again")
    func clockBack() {
        let nonces = DPoPNonces(secret: Self.secret)
        let early = nonces.current(now: at(0))
        _ = nonces.current(now: at(900))
        #expect(nonces.current(now: at(0)) == early)
        #expect(nonces.accepts(early, now: at(0)))
    }
}
