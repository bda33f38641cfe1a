import Foundation
import HTTPServerTesting
import TokenServiceTesting

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
        let response: TestResponse
        do {
            response = try TestResponse(raw: raw)
        } catch {
            throw Failure(description: "instance \(name): \(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
        return Answer(status: response.status, headers: response.headers, object: object, duration: .zero)
    }
}
