import Cryptography
import Foundation
import IdentityProviders
import IdentityProvidersTesting
import StrictJSON
import Testing

@Suite struct NonceTests {
    static let raw = "n-0S6_WzA2Mj"
    static var hashed: String {
        (try? SHA256.hash(Array(raw.utf8)).map { String(format: "%02x", $0) }.joined()) ?? ""
    }

    /// What a token carries: the raw nonce, its hash, another value, or nothing.
    enum Carried: String, CaseIterable, Sendable {
        case raw, hashed, other, none
        var value: JSONValue? {
            switch self {
            case .raw: .string(NonceTests.raw)
            case .hashed: .string(NonceTests.hashed)
            case .other: "someone-elses-nonce"
            case .none: nil
            }
        }
    }

    /// The expected outcome for each mode, when the app sends the raw nonce: nil means accepted.
    static func expected(_ mode: NonceMode, carried: Carried) -> IDTokenRejection? {
        switch (mode, carried) {
        case (_, .none): .nonceMissing
        case (_, .other): .nonceMismatch
        case (.sha256, .hashed), (.raw, .raw), (.rawOrSHA256, _): nil
        case (.sha256, .raw), (.raw, .hashed): .nonceMismatch
        }
    }

    @Test(
        "each nonce mode accepts its form and refuses the others when the app sends a nonce",
        arguments: NonceMode.allCases, Carried.allCases)
    func appSendsNonce(mode: NonceMode, carried: Carried) async throws {
        let fixture = try Fixture(nonce: mode)
        let token = try Fixture.token(Fixture.claims(["nonce": carried.value]))
        #expect(
            await fixture.failure(token, nonce: Self.raw) == Self.expected(mode, carried: carried).map { .rejected($0) }
        )
    }

    @Test("a nonce in the token but none from the app is refused in every mode", arguments: NonceMode.allCases)
    func appSendsNone(mode: NonceMode) async throws {
        let fixture = try Fixture(nonce: mode)
        for carried in [Carried.raw, .hashed] {
            let token = try Fixture.token(Fixture.claims(["nonce": carried.value]))
            #expect(await fixture.failure(token, nonce: nil) == .rejected(.nonceUnexpected))
        }
        // Neither side: accepted.
        #expect(await fixture.failure(try Fixture.token(), nonce: nil) == nil)
    }

    @Test("raw-or-sha256 never takes a hashed claim as the raw nonce: echoing the claim back is refused")
    func echoedHashedClaim() async throws {
        let fixture = try Fixture(nonce: .rawOrSHA256)
        let token = try Fixture.token(Fixture.claims(["nonce": .string(Self.hashed)]))
        // Anyone holding the token can read its claim; only the raw value behind it signs in.
        #expect(await fixture.failure(token, nonce: Self.hashed) == .rejected(.nonceMismatch))
        #expect(await fixture.failure(token, nonce: Self.raw) == nil)
        // In raw mode the claim is the raw value, so sending it is the rule (the server's nonces guard that mode).
        let raw = try Fixture(nonce: .raw)
        #expect(await raw.failure(token, nonce: Self.hashed) == nil)
    }

    @Test("the sha256 form is lowercase hex: uppercase hex does not match")
    func lowercaseHex() async throws {
        let fixture = try Fixture(nonce: .sha256)
        let token = try Fixture.token(Fixture.claims(["nonce": .string(Self.hashed.uppercased())]))
        #expect(await fixture.failure(token, nonce: Self.raw) == .rejected(.nonceMismatch))
    }

    @Test("a nonce claim that is not a string is malformed")
    func nonString() async throws {
        let fixture = try Fixture(nonce: .raw)
        let token = try Fixture.token(Fixture.claims(["nonce": .integer(42)]))
        #expect(await fixture.failure(token, nonce: "42") == .rejected(.malformed))
    }
}
