import Testing

@testable import HTTPServer

/// The protocol details an outside review found: each input was accepted or answered with the wrong status.
@Suite struct ParserHardeningTests {
    @Test("answers 400 when chunked is not the last transfer coding (RFC 9112 §6.3)")
    func chunkedNotLast() throws {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n"
        let error = try #require(ParserFixture.error(text))
        #expect(error.status == .badRequest)
        let split = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n"
        #expect(ParserFixture.error(split)?.status == .badRequest)
    }

    static let bareLineFeedHeads = [
        "GET / HTTP/1.1\nHost: a\n\n",
        "GET / HTTP/1.1\r\nHost: a\n\n",
        "GET / HTTP/1.1\r\nHost: a\r\n\n",
        "GET / HTTP/1.1\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: b\n",
    ]

    @Test("rejects a head with a bare LF line end as soon as the LF arrives", arguments: bareLineFeedHeads)
    func bareLineFeed(text: String) throws {
        // Fed whole and byte by byte: the error comes with the LF, not after a timeout waiting for CRLF CRLF.
        for size in [text.utf8.count, 1] {
            #expect(throws: HTTPServerError.malformed("bare LF")) {
                try ParserFixture.feed(ParserFixture.bytes(text), chunkSize: size)
            }
        }
    }

    @Test("rejects a bare LF in a trailer section")
    func bareLineFeedTrailer() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\n"
        #expect(ParserFixture.error(text) == .malformed("bare LF"))
    }

    @Test(
        "rejects a Host that is not one uri-host with an optional port (RFC 9110 §7.2)",
        arguments: ["a, b", "u@a", "a b", "a/b", "a?b", "a#b", "a\\b", "u:p@a:80"])
    func invalidHost(host: String) {
        #expect(ParserFixture.error("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")?.status == .badRequest)
    }

    @Test(
        "accepts the Host forms clients send",
        arguments: ["example.com", "example.com:8080", "127.0.0.1:80", "[::1]:8080", "", "xn--caf-dma.example"])
    func validHost(host: String) {
        #expect(ParserFixture.error("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == nil)
    }

    @Test("answers 501 to CONNECT, whatever its target")
    func connect() {
        #expect(
            ParserFixture.error("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
                == .unsupportedMethod)
        #expect(ParserFixture.error("CONNECT / HTTP/1.1\r\nHost: a\r\n\r\n") == .unsupportedMethod)
        #expect(HTTPServerError.unsupportedMethod.status == .notImplemented)
        #expect(HTTPServerError.unsupportedMethod.errorCode == "not_implemented")
    }

    @Test(
        "answers 501 to unknown and lower-case methods (RFC 9110 §9.1)",
        arguments: ["FOO", "get", "Post", "PROPFIND", "trace", "BREW", String(repeating: "X", count: 8192)])
    func unknownMethod(method: String) {
        #expect(ParserFixture.error("\(method) / HTTP/1.1\r\nHost: a\r\n\r\n") == .unsupportedMethod)
    }

    @Test("accepts every method of the known set", arguments: HTTPMethod.known)
    func knownMethod(method: HTTPMethod) throws {
        let events = try ParserFixture.feed(
            ParserFixture.bytes("\(method.rawValue) / HTTP/1.1\r\nHost: a\r\n\r\n"), chunkSize: 64)
        #expect(ParserFixture.heads(events).first?.method == method)
    }

    @Test("rejects a fragment in the request target", arguments: ["/a#b", "/#", "/a?b#c", "http://h/p#f"])
    func fragment(target: String) {
        #expect(ParserFixture.error("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")?.status == .badRequest)
    }

    static func chunked(_ chunks: String) -> String {
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
    }

    @Test("accepts chunk extensions up to 256 bytes and rejects longer ones")
    func chunkExtensionCap() throws {
        let fits = ";" + String(repeating: "e", count: 255)
        let events = try ParserFixture.feed(
            ParserFixture.bytes(Self.chunked("1\(fits)\r\na\r\n0\r\n\r\n")), chunkSize: 7)
        #expect(ParserFixture.bodies(events) == [Array("a".utf8)])
        let over = ";" + String(repeating: "e", count: 256)
        #expect(
            ParserFixture.error(Self.chunked("1\(over)\r\na\r\n0\r\n\r\n")) == .malformed("chunk extension too long"))
        // Not yet complete, but already over the cap: rejected without waiting for the line end.
        #expect(
            ParserFixture.error(Self.chunked("1" + over + String(repeating: "e", count: 100)))?.status == .badRequest)
    }

    @Test(
        "answers 400 to a chunk extension outside RFC 9112 §7.1.1, whatever the pieces it arrives in",
        arguments: [
            "2;", "2 ;", "2; ", "2;;", "2;a;", "2;=b", "2;a=", "2;a= ", "2;a=\"b", "2;a=b c", "2;a b", "2;a ",
            "2;a=b ", "2;a=\"b\" ", "2;a=\"b\"c", "2;@", "2;a@b", "2;a=b@c", "2;a=\"b\\\u{7F}\"", "2;a=\"\u{7F}\"",
            "2;a,b", "2;a=\"b\";", "2;\u{1}",
        ])
    func malformedChunkExtension(line: String) throws {
        let text = Self.chunked("\(line)\r\nab\r\n0\r\n\r\n")
        #expect(ParserFixture.error(text) == .malformed("invalid chunk extension"))
        #expect(ParserFixture.error(text)?.status == .badRequest)
        for size in [1, 2, 3, 7] {
            #expect(throws: HTTPServerError.malformed("invalid chunk extension")) {
                try ParserFixture.feed(ParserFixture.bytes(text), chunkSize: size)
            }
        }
    }

    @Test(
        "accepts chunk extensions of RFC 9112 §7.1.1: token names, token or quoted-string values, BWS around them",
        arguments: [
            "2;a", "2;a=b", "2 ;a", "2; a", "2 ; a = b", "2\t;\ta\t=\tb", "2;a;b;c", "2;a=b;c=d", "2;a=b ;c",
            "2;a=\"\"", "2;a=\"b c\"", "2;a=\"b;c=d\"", "2;a=\"\\\"\"", "2;a=\"\\\\\"", "2;a=\"caf\u{E9}\"",
            "2;!#$%&'*+-.^_`|~09AZaz=!#$%&'*+-.^_`|~09AZaz",
        ])
    func wellFormedChunkExtension(line: String) throws {
        let text = Self.chunked("\(line)\r\nab\r\n0\r\n\r\n")
        for size in [1, 2, 5, text.utf8.count] {
            let events = try ParserFixture.feed(ParserFixture.bytes(text), chunkSize: size)
            #expect(ParserFixture.bodies(events) == [Array("ab".utf8)])
        }
    }

    @Test("counts chunk extension bytes toward the body limit")
    func chunkExtensionsCount() {
        let chunk = "1;" + String(repeating: "e", count: 200) + "\r\na\r\n"
        let text = Self.chunked(String(repeating: chunk, count: 10) + "0\r\n\r\n")
        // 10 body bytes, but 2010 bytes of chunk data and extensions.
        #expect(ParserFixture.error(text, limits: .init(maxBodyBytes: 1000)) == .payloadTooLarge)
        #expect(ParserFixture.error(text, limits: .init(maxBodyBytes: 4000)) == nil)
    }
}
