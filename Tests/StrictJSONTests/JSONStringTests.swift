import StrictJSON
import Testing

@Suite struct JSONStringTests {
    func written(_ string: String, _ escaping: JSONString.Escaping = .standard) -> String {
        var output: [UInt8] = []
        JSONString.append(string, to: &output, escaping: escaping)
        return String(decoding: output, as: UTF8.self)
    }

    @Test("plain text is copied between quotes; slash and non-ASCII are not escaped")
    func plain() {
        #expect(written("a/b é 😀") == #""a/b é 😀""#)
        #expect(written("") == #""""#)
        // Long enough to live outside the small-string form.
        let long = String(repeating: "x", count: 200)
        #expect(written(long) == "\"" + long + "\"")
    }

    @Test("quote and backslash are escaped in every style", arguments: [JSONString.Escaping(), .standard, .log])
    func quoteAndBackslash(escaping: JSONString.Escaping) {
        #expect(written(#"say "hi" \o/"#, escaping) == #""say \"hi\" \\o/""#)
    }

    @Test(
        "standard (JSONEncoder's form): short escapes for newline, return and tab; other controls as \\u00XX; DEL kept")
    func standard() {
        #expect(written("a\nb\rc\td\u{01}\u{1F}\u{7F}") == #""a\nb\rc\td\u0001\u001f"# + "\u{7F}\"")
    }

    @Test("no options: every control as \\u00XX, as HTTP error bodies are written")
    func unicodeOnly() {
        #expect(written("bad \"x\"\n\t", []) == #""bad \"x\"\u000a\u0009""#)
    }

    @Test("log: short escapes and DEL as \\u007f")
    func log() {
        let long = String(repeating: "x", count: 40)
        #expect(written(long + "\\\n\t\u{01}\u{7F}é", .log) == "\"" + long + #"\\\n\t\u0001\u007fé""#)
    }

    @Test("the escape of every byte below 0x20 is valid JSON that parses back to the same text")
    func roundTrip() throws {
        for escaping in [JSONString.Escaping(), .standard, .log] {
            for scalar in 0..<0x80 {
                let text = "<" + String(UnicodeScalar(UInt8(scalar))) + ">"
                var output: [UInt8] = []
                JSONString.append(text, to: &output, escaping: escaping)
                #expect(try JSONValue.parse(output) == .string(text))
            }
        }
    }

    @Test(
        "integers are written in decimal, including the extremes",
        arguments: [Int64.min, -42, -1, 0, 7, 10, 1234567890, .max])
    func integers(value: Int64) {
        var output: [UInt8] = []
        JSONNumber.append(value, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == String(value))
        var fromInt: [UInt8] = [UInt8(ascii: "x")]
        JSONNumber.append(Int(value), to: &fromInt)
        #expect(String(decoding: fromInt, as: UTF8.self) == "x" + String(value))
    }
}
