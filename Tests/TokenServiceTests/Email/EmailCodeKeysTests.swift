import Store
import Testing

@testable import TokenService

@Suite struct EmailCodeKeysTests {
    let keys: EmailCodeKeys

    init() throws {
        keys = try EmailCodeKeys(secret: Array(String(repeating: "refresh-secret-", count: 5).utf8))
    }

    @Test("a code has exactly the asked number of ASCII digits", arguments: [6, 8, 10])
    func length(length: Int) throws {
        for _ in 0..<200 {
            let code = try EmailCodeKeys.generateCode(length: length)
            #expect(code.utf8.count == length)
            #expect(code.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
        }
    }

    @Test("every digit is about equally likely (no modulo bias)")
    func uniform() throws {
        var counts = [Int](repeating: 0, count: 10)
        for _ in 0..<5_000 {
            for byte in try EmailCodeKeys.generateCode(length: 10).utf8 { counts[Int(byte) - 0x30] += 1 }
        }
        // 50 000 digits, 5 000 expected each; ±5 standard deviations (σ ≈ 67).
        for count in counts { #expect(abs(count - 5_000) < 340, "\(counts)") }
    }

    @Test("the hash depends on purpose, subject and code, and is 64 lowercase hex characters")
    func hashSeparation() throws {
        let base = try keys.hash(code: "123456", purpose: .passwordReset, subject: "a@example.com")
        #expect(base.count == 64)
        #expect(base.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(try keys.hash(code: "123456", purpose: .passwordReset, subject: "a@example.com") == base)
        #expect(try keys.hash(code: "123456", purpose: .signIn, subject: "a@example.com") != base)
        #expect(try keys.hash(code: "123456", purpose: .passwordReset, subject: "b@example.com") != base)
        #expect(try keys.hash(code: "123457", purpose: .passwordReset, subject: "a@example.com") != base)
        let other = try EmailCodeKeys(secret: Array(String(repeating: "another-secret-", count: 5).utf8))
        #expect(try other.hash(code: "123456", purpose: .passwordReset, subject: "a@example.com") != base)
    }

    @Test("a sealed body opens only for its row, with the same secret, and never holds the code in the clear")
    func sealing() throws {
        let message = Array("Subject: code\r\n\r\nYour code is 482913.\r\n".utf8)
        let sealed = try keys.seal(message, id: "row-1")
        #expect(!String(decoding: sealed, as: UTF8.self).contains("482913"))
        #expect(keys.open(sealed, id: "row-1") == message)
        #expect(keys.open(sealed, id: "row-2") == nil)
        let other = try EmailCodeKeys(secret: Array(String(repeating: "another-secret-", count: 5).utf8))
        #expect(other.open(sealed, id: "row-1") == nil)
        #expect(keys.open([2] + sealed.dropFirst(), id: "row-1") == nil, "an unknown format")
    }

    @Test("a presented code is trimmed and must be exactly the code length in ASCII digits")
    func presented() {
        #expect(EmailCodeKeys.presented(" 123456\n", length: 6) == "123456")
        for bad in ["12345", "1234567", "12345a", "１２３４５６", "123 456", ""] {
            #expect(EmailCodeKeys.presented(bad, length: 6) == nil, "\(bad)")
        }
    }
}
