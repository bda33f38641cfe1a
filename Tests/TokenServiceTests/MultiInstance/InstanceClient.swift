import Foundation
import HTTPServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Requests to one ``Instance``, each on a new connection (`Connection: close`) with blocking I/O on a Dispatch
/// thread, bounded by 15 s send and receive timeouts, and timed: tests assert that no request hangs.
struct InstanceClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One answer: status, header fields (names lowercased), the decoded JSON object, and how long it took.
    struct Answer: @unchecked Sendable {  // `object` holds only JSONSerialization values, never mutated.
        var status: Int
        var headers: [String: String]
        var object: [String: Any]
        var duration: Duration

        var refreshToken: String? { object["refreshToken"] as? String }
        var accessToken: String? { object["accessToken"] as? String }
        var errorCode: String? { object["error"] as? String }
    }

    /// The instance's name, for messages.
    let name: String
    let port: Int

    /// Sends one request; throws when the connection fails or no complete response head arrives in time.
    func send(
        _ method: String, _ path: String, bearer: String? = nil, json: String? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        for (field, value) in extra { head += "\(field): \(value)\r\n" }
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let text = head + "\r\n" + (json ?? "")
        let port = self.port
        let started = ContinuousClock.now
        let raw = try await RawHTTP.offPool { () throws -> [UInt8] in
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            RawHTTP.setTimeouts(fd, seconds: 15)
            try RawHTTP.send(fd, text)
            return RawHTTP.readBytesToEnd(fd)
        }
        var answer = try parse(raw)
        answer.duration = ContinuousClock.now - started
        return answer
    }

    func register(_ email: String, _ password: String) async throws -> Answer {
        try await send("POST", "/auth/register", json: credentials(email, password))
    }

    func login(_ email: String, _ password: String) async throws -> Answer {
        try await send("POST", "/auth/login", json: credentials(email, password))
    }

    func refresh(_ token: String) async throws -> Answer {
        try await send("POST", "/auth/refresh", json: #"{"refreshToken":"\#(token)"}"#)
    }

    func me(_ accessToken: String) async throws -> Answer {
        try await send("GET", "/auth/me", bearer: accessToken)
    }

    private func credentials(_ email: String, _ password: String) -> String {
        #"{"email":"\#(email)","password":"\#(password)"}"#
    }

    private func parse(_ raw: [UInt8]) throws -> Answer {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure(description: "instance \(name): no complete response head in \(raw.count) bytes")
        }
        var lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "instance \(name): bad status line")
        }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Data(raw[(end + 4)...])
        let object = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
        return Answer(status: status, headers: fields, object: object, duration: .zero)
    }
}
