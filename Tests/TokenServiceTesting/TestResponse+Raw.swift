public import Foundation

extension TestResponse {
    /// Why bytes read from a socket are not an HTTP answer.
    public struct ParseFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Parses an HTTP/1.1 answer read to EOF (a `Connection: close` exchange over ``RawHTTP``): the status line,
    /// the header fields (names lowercased) and everything after the blank line as the body.
    /// - Throws: ``ParseFailure`` when no complete head or no status code is found.
    public init(raw: [UInt8]) throws {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw ParseFailure(description: "no response head in \(raw.count) bytes")
        }
        var lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ParseFailure(description: "bad status line")
        }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.init(status: status, headers: fields, body: Data(raw[(end + 4)...]))
    }
}
