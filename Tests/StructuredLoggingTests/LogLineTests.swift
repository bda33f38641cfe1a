import Testing

@testable import StructuredLogging

@Suite struct LogLineTests {
    @Test("JSON lines copy plain values and escape quotes, backslashes and control characters")
    func jsonEscaping() {
        var line = LogLine(format: .json)
        line.field("plain", "GET /stream-token")
        line.field("small", "a\"b")
        line.field("long", String(repeating: "x", count: 40) + "\\\n\t\u{01}\u{7F}é")
        let text = String(decoding: line.finish(), as: UTF8.self)
        let expected =
            #"{"plain":"GET /stream-token","small":"a\"b","long":""# + String(repeating: "x", count: 40)
            + #"\\\n\t\u0001\u007fé"}"# + "\n"
        #expect(text == expected)
    }

    @Test("logfmt lines quote values with blanks, equals signs or quotes, and strip such bytes from keys")
    func logfmtQuoting() {
        var line = LogLine(format: .logfmt)
        line.field("a", "plain")
        line.field("b", "two words")
        line.field("c=d", "")
        let text = String(decoding: line.finish(), as: UTF8.self)
        #expect(text == #"a=plain b="two words" cd="""# + "\n")
    }

    @Test("the timestamp field is UTC with milliseconds")
    func timestamp() {
        var line = LogLine(format: .json)
        line.timestamp()
        let text = String(decoding: line.finish(), as: UTF8.self)
        #expect(text.utf8.count == #"{"ts":"2026-11-22T03:41:04.123Z"}"#.utf8.count + 1)
        #expect(text.hasPrefix(#"{"ts":"20"#) && text.hasSuffix("Z\"}\n"))
    }
}
