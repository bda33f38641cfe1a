import Testing

@testable import HTTPServer

@Suite struct ParserTests {
    @Test("parses a GET fed in chunks of every size", arguments: 1...72)
    func getInChunks(size: Int) throws {
        let events = try ParserFixture.feed(ParserFixture.get, chunkSize: size)
        let head = try #require(ParserFixture.heads(events).first)
        #expect(head.method == .get)
        #expect(head.path == "/healthz")
        #expect(head.query == "full=1")
        #expect(head.version == .http1_1)
        #expect(head.headers["host"] == "example.com")
        #expect(head.headers["USER-AGENT"] == "test")
        #expect(head.keepAlive)
        #expect(ParserFixture.bodies(events) == [[]])
    }

    @Test("parses a Content-Length body fed in chunks of every size", arguments: 1...110)
    func postInChunks(size: Int) throws {
        let events = try ParserFixture.feed(ParserFixture.post, chunkSize: size)
        #expect(ParserFixture.heads(events).first?.contentLength == 11)
        #expect(ParserFixture.bodies(events) == [Array(#"{"a":"bcd"}"#.utf8)])
    }

    @Test("parses a chunked body with extensions and trailers in chunks of every size", arguments: 1...120)
    func chunkedInChunks(size: Int) throws {
        let events = try ParserFixture.feed(ParserFixture.chunked, chunkSize: size)
        #expect(ParserFixture.heads(events).first?.isChunked == true)
        guard case .complete(let body, let trailers) = try #require(events.last) else {
            Issue.record("no complete event")
            return
        }
        #expect(body == Array("hello world".utf8))
        #expect(trailers["x-checksum"] == "abc")
    }

    @Test("parses pipelined requests in order, in chunks of every size", arguments: [1, 2, 3, 7, 19, 64, 500])
    func pipelined(size: Int) throws {
        let events = try ParserFixture.feed(
            ParserFixture.get + ParserFixture.post + ParserFixture.chunked + ParserFixture.get, chunkSize: size)
        #expect(ParserFixture.heads(events).map(\.path) == ["/healthz", "/auth/login", "/upload", "/healthz"])
        #expect(ParserFixture.bodies(events).map(\.count) == [0, 11, 11, 0])
    }

    @Test("tolerates empty lines before the request line")
    func leadingEmptyLines() throws {
        let events = try ParserFixture.feed(ParserFixture.bytes("\r\n\r\n") + ParserFixture.get, chunkSize: 1)
        #expect(ParserFixture.heads(events).count == 1)
    }

    @Test("splits absolute-form targets into path and query")
    func absoluteForm() throws {
        let events = try ParserFixture.feed(
            ParserFixture.bytes("GET http://example.com:8080/a/b?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n"),
            chunkSize: 100)
        let head = try #require(ParserFixture.heads(events).first)
        #expect(head.path == "/a/b")
        #expect(head.query == "x=1")
        let bare = try ParserFixture.feed(
            ParserFixture.bytes("GET HTTPS://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n"), chunkSize: 100)
        #expect(ParserFixture.heads(bare).first?.path == "/")
    }

    @Test("HTTP/1.0 closes; Connection: close closes; Expect: 100-continue is noted")
    func connectionFacts() throws {
        let old = try ParserFixture.feed(ParserFixture.bytes("GET / HTTP/1.0\r\n\r\n"), chunkSize: 50)
        #expect(ParserFixture.heads(old).first?.keepAlive == false)
        let close = try ParserFixture.feed(
            ParserFixture.bytes("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Close\r\n\r\n"), chunkSize: 50)
        #expect(ParserFixture.heads(close).first?.keepAlive == false)
        let expect = try ParserFixture.feed(
            ParserFixture.bytes("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"),
            chunkSize: 80)
        #expect(ParserFixture.heads(expect).first?.expectsContinue == true)
    }

    @Test("accepts identical repeated Content-Length fields")
    func repeatedLength() throws {
        let events = try ParserFixture.feed(
            ParserFixture.bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"),
            chunkSize: 7)
        #expect(ParserFixture.bodies(events) == [Array("ok".utf8)])
    }

    @Test("stays failed after an error: later bytes are never parsed as a request")
    func staysFailed() {
        var parser = HTTPRequestParser()
        parser.append(ParserFixture.bytes("GET / HTTP/1.1\r\nHost : a\r\n\r\n"))
        #expect(throws: HTTPServerError.self) { try parser.next() }
        parser.append(ParserFixture.get)
        #expect(throws: HTTPServerError.self) { try parser.next() }
    }

    @Test("releases its buffer when idle")
    func releasesBuffer() throws {
        var parser = HTTPRequestParser()
        parser.append(ParserFixture.get)
        while try parser.next() != nil {}
        #expect(parser.isIdle)
        parser.releaseBufferIfEmpty()
        #expect(parser.buffer.capacity == 0)
    }
}
