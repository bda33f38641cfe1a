public import OutboundHTTP
public import StrictJSON

/// Calls a test script's loopback HTTP endpoints (scripts/fake_app_attest.py, scripts/fake_play_integrity.py):
/// a JSON body in, the JSON answer out; anything but 200 throws with the answer's text.
public struct ScriptControl: Sendable {
    /// What went wrong, for the test's failure message.
    public struct Failure: Error, CustomStringConvertible {
        /// The path and the script's answer.
        public var description: String
    }

    /// `http://127.0.0.1:<port>`.
    public let baseURL: String

    /// A client of the script listening on `port`.
    public init(port: Int) {
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// `POST <path>` with `body` (JSON) → the answer's JSON value.
    public func post(_ path: String, _ body: JSONObject) async throws -> JSONValue {
        try await send("POST", path, body: .object(body))
    }

    /// `GET <path>` → the answer's JSON value.
    public func get(_ path: String) async throws -> JSONValue {
        try await send("GET", path, body: nil)
    }

    private func send(_ method: String, _ path: String, body: JSONValue?) async throws -> JSONValue {
        let request = OutboundHTTPRequest(
            method: OutboundHTTPMethod(method), url: try OutboundURL(baseURL + path),
            headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized())
        let response = try await OutboundHTTPClient(deadline: .seconds(30)).send(request)
        guard response.status == 200 else {
            let text = String(decoding: response.body, as: UTF8.self)
            throw Failure(description: "\(path) answered \(response.status): \(text)")
        }
        return try JSONValue.parse(response.body)
    }
}
