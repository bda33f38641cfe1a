import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes responses straight into a connection's output buffer (RFC 9112 §4, §6).
enum ResponseSerializer {
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    static func append(
        _ response: HTTPResponse, to output: inout [UInt8], requestID: String, date: [UInt8], keepAlive: Bool,
        omitBody: Bool
    ) {
        let code = response.status.code
        appendLiteral("HTTP/1.1 ", to: &output)
        appendDecimal(code, to: &output)
        output.append(.space)
        appendText(response.status.reasonPhrase, to: &output)
        appendLiteral("\r\n", to: &output)
        for field in response.headers.fields {
            appendText(field.name, to: &output)
            appendLiteral(": ", to: &output)
            appendText(field.value, to: &output)
            appendLiteral("\r\n", to: &output)
        }
        // RFC 9110 §8.6: no Content-Length in 1xx and 204 responses; 304 omits it here too.
        if code >= 200 && code != 204 && code != 304 {
            appendLiteral("Content-Length: ", to: &output)
            appendDecimal(response.body.count, to: &output)
            appendLiteral("\r\n", to: &output)
        }
        appendLiteral("Date: ", to: &output)
        output.append(contentsOf: date)
        appendLiteral("\r\nX-Request-Id: ", to: &output)
        appendText(requestID, to: &output)
        appendLiteral(keepAlive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n", to: &output)
        if !omitBody && code >= 200 && code != 204 && code != 304 { output.append(contentsOf: response.body) }
    }

    /// Appends a literal's bytes with one copy (no walk through `String.UTF8View`).
    @inline(__always)
    static func appendLiteral(_ literal: StaticString, to output: inout [UInt8]) {
        unsafe output.append(
            contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes with one copy from its contiguous storage.
    @inline(__always)
    static func appendText(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in unsafe output.append(contentsOf: bytes) }
    }

    /// A status code or a body length in decimal, through the project's one number writer.
    @inline(__always)
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        JSONNumber.append(value, to: &output)
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7) for `seconds` since the epoch.
    static func httpDate(_ seconds: Int) -> [UInt8] {
        var time = time_t(seconds)
        var parts = unsafe tm()
        unsafe gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            unsafe "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
