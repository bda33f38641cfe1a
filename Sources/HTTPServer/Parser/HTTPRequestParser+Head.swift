extension HTTPRequestParser {
    /// Looks for the end of the header section; parses it when complete.
    mutating func parseHeadIfComplete(scanFrom: Int) throws(HTTPServerError) -> HTTPRequestHead? {
        // RFC 9112 §2.2: a server SHOULD ignore at least one empty line (CRLF) received before the request line.
        while buffer.count - readIndex >= 2 && buffer[readIndex] == .cr && buffer[readIndex + 1] == .lf {
            readIndex += 2
        }
        let start = readIndex
        let count = buffer.count
        guard start < count else { return nil }
        // Reject at the first byte what cannot start a method: a TLS hello (0x16), binary garbage, a bare LF.
        guard buffer[start].isTokenCharacter || (buffer[start] == .cr && count - start == 1) else {
            throw .malformed("request does not start with a method")
        }
        let limits = self.limits
        let end = try sectionEnd(start: start, scanFrom: scanFrom)
        guard let end else {
            let headBytes = count - start
            let requestLineLimit = limits.maxTargetBytes + 64
            if headBytes > requestLineLimit && !buffer[start..<(start + requestLineLimit)].contains(.lf) {
                throw .uriTooLong
            }
            if headBytes > limits.maxHeaderBytes { throw .headerTooLarge }
            state = .head(scanFrom: count)
            return nil
        }
        let head = unsafe try buffer.withUnsafeBufferPointer { p throws(HTTPServerError) in
            unsafe try Self.parseHead(UnsafeBufferPointer(rebasing: p[start..<end]), limits: limits)
        }
        readIndex = end
        try startBody(for: head)
        return head
    }

    /// The index just past the blank line (`CRLF CRLF`) that ends a header or trailer section starting at
    /// `start`, or nil when it has not arrived; bytes before `scanFrom` were already searched.
    /// - Throws: `.malformed("bare LF")` for an LF not preceded by CR (RFC 9112 §2.2), as soon as it arrives, so
    ///   a client that ends lines with LF alone gets 400 rather than waiting for the header timeout.
    func sectionEnd(start: Int, scanFrom: Int) throws(HTTPServerError) -> Int? {
        let count = buffer.count
        let end = unsafe buffer.withUnsafeBufferPointer { p -> Int? in
            var i = max(scanFrom, start)
            while i < count {
                if unsafe p[i] == .lf {
                    guard unsafe i > start && p[i - 1] == .cr else { return -1 }
                    if unsafe i >= start + 3 && p[i - 2] == .lf && p[i - 3] == .cr { return i + 1 }
                }
                i += 1
            }
            return nil
        }
        if end == -1 { throw .malformed("bare LF") }
        return end
    }

    /// Parses a complete header section: `p` runs from the method to the final CRLF CRLF.

    static func parseHead(_ p: UnsafeBufferPointer<UInt8>, limits: Limits) throws(HTTPServerError) -> HTTPRequestHead {
        var i = 0
        while unsafe i < p.count && p[i].isTokenCharacter { i += 1 }
        guard unsafe i > 0 && p[i] == .space else { throw .malformed("invalid method") }
        let method =
            unsafe i == 3 && p[0] == 0x47 && p[1] == 0x45 && p[2] == 0x54
            ? HTTPMethod.get : HTTPMethod(string(p, 0..<i))
        i += 1
        let targetStart = i
        while unsafe p[i] > 0x20 && p[i] < 0x7F {
            // RFC 9112 §3.2: a request target carries no fragment.
            guard unsafe p[i] != UInt8(ascii: "#") else { throw .malformed("fragment in request target") }
            i += 1
        }
        guard i - targetStart <= limits.maxTargetBytes else { throw .uriTooLong }
        guard unsafe i > targetStart && p[i] == .space else { throw .malformed("invalid request target") }
        let targetRange = targetStart..<i
        i += 1
        guard p.count - i >= 10, unsafe p[i] == 0x48, unsafe p[i + 1] == 0x54, unsafe p[i + 2] == 0x54,
            unsafe p[i + 3] == 0x50,
            unsafe p[i + 4] == 0x2F, unsafe p[i + 5] >= 0x30, unsafe p[i + 5] <= 0x39, unsafe p[i + 6] == 0x2E,
            unsafe p[i + 7] >= 0x30,
            unsafe p[i + 7] <= 0x39, unsafe p[i + 8] == .cr, unsafe p[i + 9] == .lf
        else { throw .malformed("invalid HTTP version") }
        // The same bound the incremental check applies before the line is complete, so feeding never matters.
        guard i + 9 < limits.maxTargetBytes + 64 else { throw .uriTooLong }
        guard unsafe p[i + 5] == 0x31 else { throw .unsupportedVersion }
        let version: HTTPVersion = unsafe p[i + 7] == 0x30 ? .http1_0 : .http1_1
        // RFC 9110 §9.1: 501 for a method the server does not implement, before the fields or the target's form
        // are read (CONNECT's authority-form included). Keeps client-chosen tokens out of routing, logs, metrics.
        guard method.isKnown else { throw .unsupportedMethod }
        i += 10
        guard p.count <= limits.maxHeaderBytes else { throw .headerTooLarge }

        var framing = Framing()
        var headers = HTTPHeaders()
        unsafe try parseFields(p, from: i) { name, value throws(HTTPServerError) in
            unsafe try framing.note(p, name: name, value: value)
            unsafe headers.add(name: string(p, name), value: string(p, value))
        }
        let (path, query) = unsafe try splitTarget(p, targetRange, method: method)
        try framing.validate(version: version)
        return unsafe HTTPRequestHead(
            method: method, target: string(p, targetRange), path: path, query: query, version: version,
            headers: headers, contentLength: framing.contentLength, isChunked: framing.isChunked,
            keepAlive: version == .http1_1 && !framing.connectionClose, expectsContinue: framing.expectsContinue)
    }

    /// Walks field lines from `start` to the final empty line, validating each (RFC 9112 §5, RFC 9110 §5.5).
    static func parseFields(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int,
        _ visit: (Range<Int>, Range<Int>) throws(HTTPServerError) -> Void
    ) throws(HTTPServerError) {
        var i = start
        while true {
            guard i < p.count else { throw .malformed("header section not terminated") }
            if unsafe p[i] == .cr {
                guard unsafe i + 2 == p.count && p[i + 1] == .lf else { throw .malformed("bare CR") }
                return
            }
            // RFC 9112 §5.2: obs-fold is rejected with 400.
            guard unsafe p[i] != .space && p[i] != .tab else { throw .malformed("obs-fold") }
            let nameStart = i
            while unsafe p[i].isTokenCharacter { i += 1 }
            // Whitespace before the colon (RFC 9112 §5.1) and any other non-token byte end up here.
            guard unsafe p[i] == .colon && i > nameStart else { throw .malformed("invalid header name") }
            let nameEnd = i
            i += 1
            while unsafe p[i] == .space || p[i] == .tab { i += 1 }
            let valueStart = i
            while unsafe p[i] != .cr {
                guard unsafe p[i].isFieldValueCharacter else {
                    throw unsafe .malformed(p[i] == .lf ? "bare LF" : "invalid header value")
                }
                i += 1
            }
            guard unsafe p[i + 1] == .lf else { throw .malformed("bare CR") }
            var valueEnd = i
            while unsafe valueEnd > valueStart && (p[valueEnd - 1] == .space || p[valueEnd - 1] == .tab) {
                valueEnd -= 1
            }
            try visit(nameStart..<nameEnd, valueStart..<valueEnd)
            i += 2
        }
    }

    /// Splits origin-form and absolute-form targets into path and query (RFC 9112 §3.2).
    static func splitTarget(
        _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, method: HTTPMethod
    ) throws(HTTPServerError) -> (String, String?) {
        var pathStart = range.lowerBound
        if unsafe p[pathStart] != UInt8(ascii: "/") {
            if unsafe range.count == 1 && p[pathStart] == UInt8(ascii: "*") && method == .options { return ("*", nil) }
            let scheme: Int
            if unsafe hasPrefixIgnoringCase(p, range, "http://") {
                scheme = 7
            } else if unsafe hasPrefixIgnoringCase(p, range, "https://") {
                scheme = 8
            } else {
                throw .malformed("invalid request target form")
            }
            pathStart += scheme
            guard pathStart < range.upperBound, unsafe p[pathStart] != UInt8(ascii: "/") else {
                throw .malformed("absolute-form target without authority")
            }
            while unsafe pathStart < range.upperBound && p[pathStart] != UInt8(ascii: "/")
                && p[pathStart] != UInt8(ascii: "?")
            {
                pathStart += 1
            }
        }
        var queryStart = pathStart
        while unsafe queryStart < range.upperBound && p[queryStart] != UInt8(ascii: "?") { queryStart += 1 }
        let path = unsafe pathStart == queryStart ? "/" : string(p, pathStart..<queryStart)
        let query = unsafe queryStart < range.upperBound ? string(p, (queryStart + 1)..<range.upperBound) : nil
        return (path, query)
    }

    static func string(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        unsafe String(decoding: UnsafeBufferPointer(rebasing: p[range]), as: UTF8.self)
    }

    static func hasPrefixIgnoringCase(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ prefix: StaticString)
        -> Bool
    {
        guard range.count >= prefix.utf8CodeUnitCount else { return false }
        let bytes = unsafe UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        for offset in 0..<bytes.count where unsafe p[range.lowerBound + offset] | 0x20 != bytes[offset] {
            return false
        }
        return true
    }
}
