import Foundation
import Testing

@testable import TokenService

@Suite struct RefreshTokenCodecTests {
    let secret = Array("refresh-secret-refresh-secret-refresh-secret-refresh-secret-refresh!".utf8)
    let sessionID = "6f1c1a3e-2b7d-4c59-9a0e-3c8f5d2b1a90"

    @Test("a token names its session and counter, and decodes back", arguments: [Int64(0), 1, 41, Int64.max])
    func roundTrip(counter: Int64) throws {
        let codec = try RefreshTokenCodec(secret: secret)
        let token = try #require(codec.encode(sessionID: sessionID, counter: counter))
        #expect(token.utf8.count == 76)
        #expect(codec.decode(token) == .init(sessionID: sessionID, counter: counter))
    }

    @Test("every single-character change, another secret, or another length is refused")
    func tamperingIsRefused() throws {
        let codec = try RefreshTokenCodec(secret: secret)
        let token = Array(try #require(codec.encode(sessionID: sessionID, counter: 7)))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for index in token.indices {
            var changed = token
            changed[index] = alphabet.first { $0 != token[index] } ?? "A"
            #expect(codec.decode(String(changed)) == nil)
        }
        let other = try RefreshTokenCodec(secret: Array(secret.reversed()))
        #expect(other.decode(String(token)) == nil)
        #expect(codec.decode(String(token.dropLast())) == nil)
        #expect(codec.decode(String(token) + "A") == nil)
        #expect(codec.decode("") == nil)
    }

    @Test("a secret shorter than 32 bytes is refused")
    func weakSecret() {
        #expect(throws: (any Error).self) { try RefreshTokenCodec(secret: Array(repeating: 1, count: 31)) }
    }

    @Test("a session id that is not a UUID cannot be encoded")
    func nonUUID() throws {
        let codec = try RefreshTokenCodec(secret: secret)
        #expect(codec.encode(sessionID: "not-a-uuid", counter: 1) == nil)
    }
}
