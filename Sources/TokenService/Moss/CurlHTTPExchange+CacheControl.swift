extension CurlHTTPExchange {
    /// What one header line means for the `Cache-Control` kept: a status line starts a new head (after a 1xx)
    /// and forgets the previous value; a `Cache-Control` line gives its value (trimmed); anything else nothing.
    enum CacheControlLine: Equatable {
        case statusLine
        case cacheControl(String)
        case other
    }

    static func cacheControlLine(_ bytes: UnsafeRawBufferPointer) -> CacheControlLine {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") { return .statusLine }
        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "cache-control" else {
            return .other
        }
        return .cacheControl(String(line[line.index(after: colon)...]).trimmingWhitespace)
    }
}
