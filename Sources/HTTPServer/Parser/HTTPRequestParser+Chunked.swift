extension HTTPRequestParser {
    /// The longest chunk extension (from its `;` to the line end) accepted; longer ones are a 400.
    static let maxChunkExtensionBytes = 256
    /// The longest chunk-size line accepted: 16 hex digits, some whitespace, an extension and CRLF.
    static let maxChunkLineBytes = 16 + 32 + maxChunkExtensionBytes + 2

    /// Parses one chunk-size line (RFC 9112 §7.1); returns false when the line is not complete yet.
    mutating func parseChunkSize() throws(HTTPServerError) -> Bool {
        let start = readIndex
        let window = min(buffer.count, start + Self.maxChunkLineBytes)
        guard let lf = buffer[start..<window].firstIndex(of: .lf) else {
            if buffer.count - start >= Self.maxChunkLineBytes { throw .malformed("chunk extension too long") }
            return false
        }
        guard lf > start && buffer[lf - 1] == .cr else { throw .malformed("chunk line without CRLF") }
        var size = 0
        var index = start
        while index < lf - 1, let digit = Self.hexValue(buffer[index]) {
            guard index - start < 15 else { throw .malformed("chunk size too large") }
            size = size << 4 | digit
            index += 1
        }
        guard index > start else { throw .malformed("invalid chunk size") }
        // Chunk extensions are ignored, but must follow the grammar, so that no two parsers on the path read the
        // line differently (a bare ";" is one some take as the end of the size and others refuse).
        while index < lf - 1 && (buffer[index] == .space || buffer[index] == .tab) { index += 1 }
        if index < lf - 1 {
            guard buffer[index] == UInt8(ascii: ";") else { throw .malformed("invalid chunk size") }
            guard lf - 1 - index <= Self.maxChunkExtensionBytes else { throw .malformed("chunk extension too long") }
            guard Self.isChunkExtension(buffer[index..<(lf - 1)]) else { throw .malformed("invalid chunk extension") }
            // Extensions are ignored, but they cost reading: count them toward the body limit.
            chunkExtensionBytes += lf - 1 - index
        }
        readIndex = lf + 1
        guard body.count + size + chunkExtensionBytes <= limits.maxBodyBytes else { throw .payloadTooLarge }
        state = size == 0 ? .trailers(scanFrom: readIndex) : .chunkData(remaining: size)
        return true
    }

    /// Parses the trailer section after the last chunk; returns false when it is not complete yet.
    mutating func parseTrailersIfComplete(scanFrom: Int) throws(HTTPServerError) -> Bool {
        let start = readIndex
        let count = buffer.count
        guard count - start >= 2 else { return false }
        if buffer[start] == .cr {
            guard buffer[start + 1] == .lf else { throw .malformed("bare CR") }
            readIndex += 2
            return true
        }
        let end = try sectionEnd(start: start, scanFrom: scanFrom)
        guard let end else {
            if count - start > limits.maxHeaderBytes { throw .headerTooLarge }
            state = .trailers(scanFrom: count)
            return false
        }
        guard end - start <= limits.maxHeaderBytes else { throw .headerTooLarge }
        var fields = HTTPHeaders()
        unsafe try buffer.withUnsafeBufferPointer { p throws(HTTPServerError) in
            let section = unsafe UnsafeBufferPointer(rebasing: p[start..<end])
            unsafe try Self.parseFields(section, from: 0) { name, value throws(HTTPServerError) in
                unsafe fields.add(name: Self.string(section, name), value: Self.string(section, value))
            }
        }
        trailers = fields
        readIndex = end
        return true
    }

    /// Whether `bytes` (from the first `;` to the end of the line, CRLF excluded) is a chunk extension of RFC 9112
    /// §7.1.1: `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`, where the name is a token and the
    /// value a token or a quoted-string (RFC 9110 §5.6.4: `qdtext` and `quoted-pair`, obs-text included). A `;`
    /// without a name, a name that is not a token, an `=` without a value and an unterminated quoted-string are
    /// refused.
    static func isChunkExtension(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        let end = bytes.endIndex
        func skipWhitespace() {
            while index < end && (bytes[index] == .space || bytes[index] == .tab) { index += 1 }
        }
        func token() -> Bool {
            let start = index
            while index < end && bytes[index].isTokenCharacter { index += 1 }
            return index > start
        }
        func quotedString() -> Bool {
            guard index < end, bytes[index] == .doubleQuote else { return false }
            index += 1
            while index < end {
                let byte = bytes[index]
                switch byte {
                case .doubleQuote:
                    index += 1
                    return true
                case .backslash:
                    // quoted-pair: "\" ( HTAB / SP / VCHAR / obs-text )
                    guard index + 1 < end, bytes[index + 1].isFieldValueCharacter else { return false }
                    index += 2
                case .tab, 0x20...0x7E, 0x80...0xFF:
                    index += 1
                default:
                    return false
                }
            }
            return false
        }
        while index < end {
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: ";") else { return false }
            index += 1
            skipWhitespace()
            guard token() else { return false }
            var itemEnd = index
            skipWhitespace()
            if index < end && bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipWhitespace()
                guard token() || quotedString() else { return false }
                itemEnd = index
                skipWhitespace()
            }
            // BWS comes only before a ";" or around "=": none after the last name or value.
            if index == end { return itemEnd == end }
        }
        return true
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
