import JWT
import StrictJSON
import Testing

@Suite struct JWTMutationTests {
    @Test("rejects every single-byte change of a valid token", arguments: Fixture.signingAlgorithms)
    func singleByteChanges(algorithm: JWTAlgorithm) throws {
        let keys = try Fixture.keys(algorithm)
        let token = Array(try keys.sign(Fixture.claims).utf8)
        let replacements = Array("AaZz09-_.=+/ \u{7f}".utf8) + [0x00, 0xc3]
        for index in token.indices {
            for replacement in replacements where replacement != token[index] {
                var mutated = token
                mutated[index] = replacement
                let text = String(decoding: mutated, as: UTF8.self)
                #expect(throws: JWTError.self) { _ = try keys.verify(text, options: Fixture.options()) }
            }
        }
    }

    @Test("never crashes on random bytes and rejects them")
    func randomInput() throws {
        let keys = try Fixture.keys()
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("eyJ0{}[]\":,.-_AZaz09 \\u".utf8)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...120, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(throws: JWTError.self) { _ = try keys.verify(text, options: Fixture.options()) }
            _ = try? JSONValue.parse(bytes)
            _ = try? JWTKeySet.decode(text)
        }
    }
}
