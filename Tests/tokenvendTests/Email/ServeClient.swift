import Foundation
import HTTPServerTesting
import TokenServiceTesting

/// Requests to a ``ServeProcess``, each on a new connection (`Connection: close`), with blocking I/O off the
/// cooperative pool, bounded by 15 s timeouts, and timed from the first byte sent to the last byte read.
struct ServeClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One answer: status, header fields (names lowercased), the raw body, its JSON object, and how long it took.
    struct Answer: @unchecked Sendable {  // `object` holds only JSONSerialization values, never mutated.
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var object: [String: Any]
        var duration: Duration

        var errorCode: String? { object["error"] as? String }
        var accessToken: String? { object["accessToken"] as? String }
        var refreshToken: String? { object["refreshToken"] as? String }
    }

    let port: Int

    /// Sends one request with a JSON body (when given) and a bearer token (when given).
    func send(_ method: String, _ path: String, json: String? = nil, bearer: String? = nil) async throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        if let json { head += "Content-Type: application/json\r\nContent-Length: \(Array(json.utf8).count)\r\n" }
        let text = head + "\r\n" + (json ?? "")
        let port = self.port
        let (raw, duration) = try await RawHTTP.offPool { () throws -> ([UInt8], Duration) in
            let started = ContinuousClock.now
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            RawHTTP.setTimeouts(fd, seconds: 15)
            try RawHTTP.send(fd, text)
            let bytes = RawHTTP.readBytesToEnd(fd)
            return (bytes, ContinuousClock.now - started)
        }
        return try Self.parse(raw, duration: duration)
    }

    /// `POST path` with `{"email": …}` and any other members.
    func post(_ path: String, _ members: [String: String], bearer: String? = nil) async throws -> Answer {
        let data = try JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])
        return try await send("POST", path, json: String(decoding: data, as: UTF8.self), bearer: bearer)
    }

    /// Registers `email` with `password`, requiring 201.
    func register(_ email: String, _ password: String) async throws {
        let answer = try await post("/auth/register", ["email": email, "password": password])
        guard answer.status == 201 else { throw Failure(description: "register \(email): \(answer.status)") }
    }

    private static func parse(_ raw: [UInt8], duration: Duration) throws -> Answer {
        let response = try TestResponse(raw: raw)
        let body = Array(response.body)
        let object = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
        return Answer(
            status: response.status, headers: response.headers, body: body, object: object, duration: duration)
    }
}
