/// An incremental HTTP/1.1 request parser (RFC 9112) over a reusable byte buffer; it knows nothing of sockets.
///
/// Feed bytes with `append(_:)` (or `readInto(maxBytes:_:)`, which reads straight into the buffer), then call
/// `next()` until it returns nil. Each request yields `.head` once its header section is complete (so a server
/// can answer 413 or send `100 Continue` before the body arrives), then `.complete` with the body and
/// trailers. The parser is strict where leniency lets two parties disagree on framing: both `Content-Length`
/// and `Transfer-Encoding`, conflicting or malformed lengths, invalid chunk sizes, whitespace before a colon,
/// obs-fold, bare CR or LF, invalid name characters and missing or duplicate `Host` all throw. After an error
/// the parser stays failed: bytes after a rejected request are never parsed as another request.
///
/// ```swift
/// var parser = HTTPRequestParser(limits: .init())
/// parser.append(Array("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
/// while let event = try parser.next() { print(event) }
/// ```
public struct HTTPRequestParser: Sendable {
    /// Size limits; each violation throws the error that maps to its status.
    public struct Limits: Sendable, Equatable {
        /// Bytes of the header section (request line included), and of a trailer section. Default: 16384 (431).
        public var maxHeaderBytes: Int
        /// Bytes of the request target. Default: 8192 (414).
        public var maxTargetBytes: Int
        /// Bytes of the body, declared or received. Default: 65536 (413).
        public var maxBodyBytes: Int

        /// Creates limits; every value must be positive.
        public init(maxHeaderBytes: Int = 16384, maxTargetBytes: Int = 8192, maxBodyBytes: Int = 65536) {
            precondition(maxHeaderBytes > 0 && maxTargetBytes > 0 && maxBodyBytes >= 0, "limits are positive")
            self.maxHeaderBytes = maxHeaderBytes
            self.maxTargetBytes = maxTargetBytes
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// What `next()` found.
    public enum Event: Sendable, Equatable {
        /// A complete header section; the body (if any) follows.
        case head(HTTPRequestHead)
        /// The end of the request: the whole body and the trailer fields (chunked bodies only).
        case complete(body: [UInt8], trailers: HTTPHeaders)
    }

    enum State: Sendable {
        case head(scanFrom: Int)
        case endOfRequest
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(scanFrom: Int)
        case failed(HTTPServerError)
    }

    /// The limits this parser enforces.
    public let limits: Limits
    var buffer: [UInt8] = []
    var readIndex = 0
    var state: State = .head(scanFrom: 0)
    var body: [UInt8] = []
    var trailers = HTTPHeaders()
    /// Bytes of chunk extensions in the current body, counted toward `maxBodyBytes`.
    var chunkExtensionBytes = 0
    /// The head of the request being parsed, kept after a body error so the server can log it.
    public private(set) var currentHead: HTTPRequestHead?

    /// Creates a parser with these limits.
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Bytes received but not yet consumed by `next()`.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Whether the parser is between requests with nothing buffered (an idle keep-alive connection).
    public var isIdle: Bool {
        if case .head = state { return bufferedByteCount == 0 }
        return false
    }

    /// Whether the parser is waiting for a request head (possibly with part of it buffered).
    public var isAwaitingHead: Bool {
        if case .head = state { return true }
        return false
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        compactIfNeeded()
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes from raw memory.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfNeeded()
        unsafe buffer.append(contentsOf: bytes)
    }

    /// Releases the buffer's storage when nothing is buffered, so an idle connection holds no buffer.
    public mutating func releaseBufferIfEmpty() {
        if bufferedByteCount == 0 && buffer.capacity > 0 {
            buffer = []
            readIndex = 0
            if case .head = state { state = .head(scanFrom: 0) }
        }
    }

    mutating func compactIfNeeded() {
        guard readIndex > 0 else { return }
        let consumed = readIndex
        if consumed == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeSubrange(0..<consumed)
        }
        readIndex = 0
        switch state {
        case .head(let scanFrom): state = .head(scanFrom: max(0, scanFrom - consumed))
        case .trailers(let scanFrom): state = .trailers(scanFrom: max(0, scanFrom - consumed))
        default: break
        }
    }

    /// Parses as far as the buffered bytes allow.
    /// - Returns: the next event, or nil when more bytes are needed.
    /// - Throws: `HTTPServerError` (`.malformed`, `.headerTooLarge`, `.uriTooLong`, `.payloadTooLarge`,
    ///   `.unsupportedTransferCoding`, `.unsupportedVersion`); every later call throws the same error.
    public mutating func next() throws(HTTPServerError) -> Event? {
        do {
            return try step()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    mutating func step() throws(HTTPServerError) -> Event? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .head(let scanFrom):
                guard let head = try parseHeadIfComplete(scanFrom: scanFrom) else { return nil }
                return .head(head)
            case .endOfRequest:
                return completeRequest()
            case .fixedBody(let remaining):
                guard let left = takeBody(upTo: remaining) else { return nil }
                state = left == 0 ? .endOfRequest : .fixedBody(remaining: left)
            case .chunkSize:
                guard try parseChunkSize() else { return nil }
            case .chunkData(let remaining):
                guard let left = takeBody(upTo: remaining) else { return nil }
                state = left == 0 ? .chunkDataEnd : .chunkData(remaining: left)
            case .chunkDataEnd:
                guard buffer.count - readIndex >= 2 else { return nil }
                guard buffer[readIndex] == .cr && buffer[readIndex + 1] == .lf else {
                    throw .malformed("chunk data not followed by CRLF")
                }
                readIndex += 2
                state = .chunkSize
            case .trailers(let scanFrom):
                guard try parseTrailersIfComplete(scanFrom: scanFrom) else { return nil }
                state = .endOfRequest
            }
        }
    }

    /// Moves up to `remaining` buffered bytes into the body; returns how many are still to come, or nil when
    /// no byte is buffered.
    mutating func takeBody(upTo remaining: Int) -> Int? {
        let available = buffer.count - readIndex
        guard available > 0 else { return nil }
        let take = min(available, remaining)
        body.append(contentsOf: buffer[readIndex..<readIndex + take])
        readIndex += take
        return remaining - take
    }

    mutating func completeRequest() -> Event {
        let event = Event.complete(body: body, trailers: trailers)
        body = []
        trailers = HTTPHeaders()
        chunkExtensionBytes = 0
        currentHead = nil
        state = .head(scanFrom: readIndex)
        return event
    }

    /// Moves to the body state the head's framing asks for.
    mutating func startBody(for head: HTTPRequestHead) throws(HTTPServerError) {
        currentHead = head
        if head.isChunked {
            state = .chunkSize
        } else if let length = head.contentLength, length > 0 {
            guard length <= limits.maxBodyBytes else { throw .payloadTooLarge }
            body.reserveCapacity(min(length, 1024))  // grow with arriving bytes: slow bodies stay cheap
            state = .fixedBody(remaining: length)
        } else {
            state = .endOfRequest
        }
    }
}

extension UInt8 {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")
    static let doubleQuote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    /// RFC 9110 §5.6.2 tchar.
    var isTokenCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Characters of `uri-host [":" port]` (RFC 3986 §3.2.2): unreserved, pct-encoded, the sub-delims other
    /// than ",", and ":", "[", "]" for ports and IP literals. Excludes "@" (userinfo), "," (a list), "/", "?",
    /// "#", "\\" and whitespace.
    var isHostCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x2D, 0x2E, 0x5F, 0x7E, 0x25: true  // - . _ ~ %
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x3B, 0x3D: true  // ! $ & ' ( ) * + ; =
        case 0x3A, 0x5B, 0x5D: true  // : [ ]
        default: false
        }
    }

    /// Field-value characters (RFC 9110 §5.5): VCHAR, obs-text, SP and HTAB.
    var isFieldValueCharacter: Bool { self == .tab || (self >= 0x20 && self != 0x7F) }
}
