extension CurlExchange {
    /// What one header line (as libcurl hands it to the header callback, CRLF included) is.
    enum HeaderLine: Equatable {
        /// `HTTP/…`: a new head starts (after a 1xx, or a new transfer); the previous fields are forgotten.
        case statusLine
        /// `Name: value`, the value without surrounding spaces and tabs.
        case field(name: String, value: String)
        /// An obsolete folded line (starting with a space or tab): more of the previous field's value.
        case continuation(String)
        /// The blank line that ends a head.
        case end
        /// Anything else (a line without a colon).
        case other
    }

    static func headerLine(_ bytes: UnsafeRawBufferPointer) -> HeaderLine {
        let line = unsafe String(decoding: bytes, as: UTF8.self)
        let content = line.trimmingCharacters(" \t\r\n")
        if content.isEmpty && !line.hasPrefix(" ") && !line.hasPrefix("\t") { return .end }
        if line.hasPrefix("HTTP/") { return .statusLine }
        if line.hasPrefix(" ") || line.hasPrefix("\t") { return .continuation(content) }
        guard let colon = line.firstIndex(of: ":") else { return .other }
        let value = line[line.index(after: colon)...].trimmingCharacters(" \t\r\n")
        return .field(name: String(line[..<colon]), value: value)
    }
}

extension StringProtocol {
    /// The text without the given characters at either end.
    fileprivate func trimmingCharacters(_ characters: String) -> String {
        let set = Set(characters.unicodeScalars)
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
            let last = scalars.lastIndex(where: { !set.contains($0) })
        else { return "" }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[first...last])
        return result
    }
}
