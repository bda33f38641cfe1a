import StrictJSON
import Testing

@Suite struct JSONValueTests {
    /// Parses through the public surface: a token payload is the only way in besides `JSONValue.parse`.
    func parse(_ text: String) throws(StrictJSONError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    @Test("parses every JSON type and keeps member order")
    func parsesTypes() throws {
        let value = try parse(#" {"z": [1, -2, 3.5, 1e3, true, false, null], "a": {"b": "c"}, "m": "x"} "#)
        let object = try #require(value.objectValue)
        #expect(object.map(\.name) == ["z", "a", "m"])
        #expect(object["z"] == [1, -2, 3.5, 1000.0, true, false, nil])
        #expect(object["a"]?.objectValue?["b"] == "c")
    }

    @Test("decodes escapes and surrogate pairs and validates UTF-8")
    func strings() throws {
        #expect(try parse(#""a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00""#) == .string("a\"\\/\u{8}\u{c}\n\r\tAé😀"))
        #expect(try parse("\"h\u{e9}\"") == .string("hé"))
        #expect(throws: StrictJSONError.invalid) { try JSONValue.parse([0x22, 0xff, 0x22]) }
        #expect(throws: StrictJSONError.invalid) { try parse(#""\ud83d""#) }
        #expect(throws: StrictJSONError.invalid) { try parse(#""\ude00""#) }
        #expect(throws: StrictJSONError.invalid) { try parse("\"tab\there\"") }
    }

    @Test(
        "rejects invalid JSON",
        arguments: [
            "", "{", "{\"a\":1,}", "[1,]", "01", "1.", ".5", "-", "+1", "1e", "tru", "nul", "{\"a\" 1}", "{a:1}",
            "'a'", "\"\\x\"", "{} {}", "\u{FEFF}{}", "NaN", "1e999", "[1 2]",
        ])
    func rejectsInvalid(text: String) {
        #expect(throws: StrictJSONError.self) { try parse(text) }
    }

    @Test("rejects duplicate member names at any depth")
    func duplicates() {
        #expect(throws: StrictJSONError.duplicateMember) { try parse(#"{"a":1,"a":2}"#) }
        #expect(throws: StrictJSONError.duplicateMember) { try parse(#"{"x":{"a":1,"b":2,"a":3}}"#) }
        #expect(throws: StrictJSONError.duplicateMember) { try parse(#"{"a":1,"\u0061":2}"#) }
        let many = (0..<40).map { "\"k\($0)\":1" }.joined(separator: ",")
        #expect(throws: StrictJSONError.duplicateMember) { try parse("{\(many),\"k7\":2}") }
    }

    @Test("accepts 64 levels of nesting and rejects 65")
    func nesting() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth - 1) + "{}" + String(repeating: "]", count: depth - 1)
        }
        _ = try parse(nested(64))
        #expect(throws: StrictJSONError.nestingTooDeep) { try parse(nested(65)) }
        #expect(throws: StrictJSONError.nestingTooDeep) { try parse(String(repeating: "[", count: 100_000)) }
    }

    @Test("parses integers exactly and falls back to doubles outside Int64")
    func numbers() throws {
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("-9223372036854775808") == .integer(.min))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("1.5e2") == .double(150))
    }

    @Test("serializes compactly with escapes and round-trips")
    func serializes() throws {
        let value: JSONValue = ["b": "q\"\\\n\u{1}/é", "a": [1, 2.5, true, nil], "n": .integer(.min)]
        let text = value.jsonString
        #expect(text == #"{"b":"q\"\\\n\u0001/é","a":[1,2.5,true,null],"n":-9223372036854775808}"#)
        #expect(try parse(text) == value)
    }
}
