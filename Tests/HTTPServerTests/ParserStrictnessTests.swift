import Testing

@testable import HTTPServer

@Suite struct ParserStrictnessTests {
    static let malformed: [(String, String)] = [
        ("both lengths", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"),
        ("conflicting lengths", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
        ("length list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc"),
        ("negative length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"),
        ("signed length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\na"),
        ("huge length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1234567890123456789012\r\n\r\n"),
        ("empty length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n"),
        ("bad chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n"),
        ("empty chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n"),
        (
            "chunk size overflow",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n"
        ),
        ("chunk without CRLF", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naXX0\r\n\r\n"),
        ("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
        ("tab before colon", "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n"),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n"),
        ("bare CR in value", "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n"),
        ("bare LF line end", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n"),
        ("bare CR request line", "GET / HTTP/1.1\rHost: a\r\n\r\n"),
        ("invalid name character", "GET / HTTP/1.1\r\nHost: a\r\nX(y): b\r\n\r\n"),
        ("empty name", "GET / HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n"),
        ("NUL in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n"),
        ("missing Host", "GET / HTTP/1.1\r\nX: a\r\n\r\n"),
        ("duplicate Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        ("chunked twice", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n"),
        ("chunked in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"),
        ("TLS client hello", "\u{16}\u{3}\u{1}\u{0}\u{a5}\u{1}\u{0}"),
        ("bad version", "GET / HTTP/1.x\r\nHost: a\r\n\r\n"),
        ("lowercase version", "GET / http/1.1\r\nHost: a\r\n\r\n"),
        ("two spaces", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("relative target", "GET index.html HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("asterisk for GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("non-ASCII target", "GET /caf\u{e9} HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("bare LF before request", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
    ]

    @Test("rejects with 400", arguments: malformed)
    func rejects(name: String, text: String) throws {
        let error = try #require(ParserFixture.error(text), "\(name) was accepted")
        #expect(error.status == .badRequest, "\(name): \(error)")
    }

    @Test("answers 501 to unknown transfer codings", arguments: ["gzip", "gzip, chunked", "identity"])
    func unknownCoding(coding: String) {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(coding)\r\n\r\n"
        #expect(ParserFixture.error(text) == .unsupportedTransferCoding)
    }

    @Test("answers 505 to the HTTP/2 preface")
    func http2Preface() {
        #expect(ParserFixture.error("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == .unsupportedVersion)
    }

    @Test("answers 431 to a header section over the limit, complete or not")
    func headerLimit() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 1024)
        let big = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "a", count: 1100)
        #expect(ParserFixture.error(big, limits: limits) == .headerTooLarge)
        #expect(ParserFixture.error(big + "\r\n\r\n", limits: limits) == .headerTooLarge)
        let fits = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "a", count: 900) + "\r\n\r\n"
        #expect(ParserFixture.error(fits, limits: limits) == nil)
    }

    @Test("answers 431 to a trailer section over the limit")
    func trailerLimit() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 256)
        let text =
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: "
            + String(repeating: "a", count: 300) + "\r\n\r\n"
        #expect(ParserFixture.error(text, limits: limits) == .headerTooLarge)
    }

    @Test("answers 414 to a target over the limit, complete or not")
    func targetLimit() {
        let limits = HTTPRequestParser.Limits(maxTargetBytes: 100)
        let long = "GET /" + String(repeating: "a", count: 200)
        #expect(ParserFixture.error(long, limits: limits) == .uriTooLong)
        #expect(ParserFixture.error(long + " HTTP/1.1\r\nHost: a\r\n\r\n", limits: limits) == .uriTooLong)
    }

    @Test("answers 413 to a declared length over the limit before any body byte")
    func declaredBodyLimit() {
        var parser = HTTPRequestParser(limits: .init(maxBodyBytes: 10))
        parser.append(ParserFixture.bytes("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n"))
        #expect(throws: HTTPServerError.payloadTooLarge) { try parser.next() }
        #expect(parser.currentHead?.path == "/x")
    }

    @Test("answers 413 to chunks adding up over the limit")
    func chunkedBodyLimit() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n"
        #expect(ParserFixture.error(text, limits: .init(maxBodyBytes: 10)) == .payloadTooLarge)
    }
}

@Suite struct ParserFeedingInvarianceTests {
    static let inputs: [String] = [
        String(repeating: "M", count: 150) + " /short HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /" + String(repeating: "a", count: 120) + " HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\nT: 1\r\n\r\n",
        "\r\n\r\nGET / HTTP/1.0\r\n\r\nGET /x HTTP/1.1\r\nHost: b\r\nContent-Length: 3\r\n\r\nabc",
    ]

    /// The property the fuzz target checks: how bytes are split never changes what is parsed.
    @Test("feeding whole or byte by byte gives the same events and the same failure", arguments: inputs)
    func sameResult(text: String) {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 512, maxTargetBytes: 128, maxBodyBytes: 1024)
        let bytes = ParserFixture.bytes(text)
        let whole = Result { () throws(HTTPServerError) in
            try ParserFixture.feed(bytes, chunkSize: bytes.count, limits: limits)
        }
        let pieces = Result { () throws(HTTPServerError) in try ParserFixture.feed(bytes, chunkSize: 1, limits: limits)
        }
        switch (whole, pieces) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure, .failure): break
        default: Issue.record("whole: \(whole), pieces: \(pieces)")
        }
    }
}
