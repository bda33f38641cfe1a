extension HTTPRequestParser {
    /// The framing-relevant header fields seen so far in one header section (RFC 9112 §6).
    struct Framing {
        var hostCount = 0
        var contentLength: Int?
        var transferEncodingSeen = false
        var codings = 0
        var unknownCoding = false
        var chunkedCount = 0
        var lastIsChunked = false
        var invalidHost = false
        var connectionClose = false
        var expectsContinue = false

        var isChunked: Bool { transferEncodingSeen }

        mutating func note(_ p: UnsafeBufferPointer<UInt8>, name: Range<Int>, value: Range<Int>)
            throws(HTTPServerError)
        {
            switch name.count {
            case 4 where unsafe equalsLowercase(p, name, "host"):
                hostCount += 1
                // RFC 9110 §7.2: Host = uri-host [ ":" port ]; a list or userinfo is not a host.
                for index in value where unsafe !p[index].isHostCharacter { invalidHost = true }
            case 6 where unsafe equalsLowercase(p, name, "expect"):
                expectsContinue = unsafe equalsLowercase(p, value, "100-continue")
            case 10 where unsafe equalsLowercase(p, name, "connection"):
                unsafe forEachListElement(p, value) { element in
                    if unsafe equalsLowercase(p, element, "close") { connectionClose = true }
                }
            case 14 where unsafe equalsLowercase(p, name, "content-length"):
                // RFC 9112 §6.3: an invalid or conflicting length is unrecoverable; reject lists outright.
                guard (1...18).contains(value.count) else { throw .malformed("invalid Content-Length") }
                var length = 0
                for index in value {
                    guard unsafe p[index] >= 0x30 && p[index] <= 0x39 else {
                        throw .malformed("invalid Content-Length")
                    }
                    length = unsafe length * 10 + Int(p[index] - 0x30)
                }
                if let contentLength, contentLength != length { throw .malformed("conflicting Content-Length") }
                contentLength = length
            case 17 where unsafe equalsLowercase(p, name, "transfer-encoding"):
                transferEncodingSeen = true
                // Across repeated fields too: they form one list (RFC 9110 §5.3).
                unsafe forEachListElement(p, value) { element in
                    codings += 1
                    lastIsChunked = unsafe equalsLowercase(p, element, "chunked")
                    if lastIsChunked { chunkedCount += 1 } else { unknownCoding = true }
                }
            default:
                break
            }
        }

        func validate(version: HTTPVersion) throws(HTTPServerError) {
            // RFC 9112 §3.2: 400 for an HTTP/1.1 request without Host, or with more than one.
            if hostCount > 1 { throw .malformed("duplicate Host") }
            if hostCount == 0 && version == .http1_1 { throw .malformed("missing Host") }
            if invalidHost { throw .malformed("invalid Host") }
            guard transferEncodingSeen else { return }
            // RFC 9112 §6.1: both framings at once is a smuggling attempt; close after answering.
            if contentLength != nil { throw .malformed("both Content-Length and Transfer-Encoding") }
            if version == .http1_0 { throw .malformed("Transfer-Encoding in HTTP/1.0") }
            // RFC 9112 §6.3: chunked present but not the final coding leaves the length unknowable: 400, even
            // when the other coding is one we do not know (that alone would be 501, RFC 9112 §6.1).
            if chunkedCount > 0 && !lastIsChunked { throw .malformed("chunked is not the final coding") }
            if chunkedCount > 1 { throw .malformed("chunked applied more than once") }
            if unknownCoding { throw .unsupportedTransferCoding }
            if codings != 1 { throw .malformed("chunked applied more than once") }
        }

        /// Calls `body` with each non-empty element of a comma-separated list, trimmed of OWS.
        func forEachListElement(
            _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>) -> Void
        ) {
            var start = range.lowerBound
            while start < range.upperBound {
                var end = start
                while unsafe end < range.upperBound && p[end] != UInt8(ascii: ",") { end += 1 }
                var lower = start
                var upper = end
                while unsafe lower < upper && (p[lower] == .space || p[lower] == .tab) { lower += 1 }
                while unsafe upper > lower && (p[upper - 1] == .space || p[upper - 1] == .tab) { upper -= 1 }
                if lower < upper { body(lower..<upper) }
                start = end + 1
            }
        }

        func equalsLowercase(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercase: StaticString) -> Bool {
            guard range.count == lowercase.utf8CodeUnitCount else { return false }
            let bytes = unsafe UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
            for offset in 0..<bytes.count {
                let byte = unsafe bytes[offset]
                let b = unsafe p[range.lowerBound + offset]
                guard b == byte || (b >= 0x41 && b <= 0x5A && b | 0x20 == byte) else { return false }
            }
            return true
        }
    }
}
