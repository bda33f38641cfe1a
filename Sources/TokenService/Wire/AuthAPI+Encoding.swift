public import AuthAPI
import StrictJSON

// The three hot response bodies, written in one pass with StrictJSON's writers: exactly what `JSONEncoder`
// writes for these types (members in declaration order, absent optionals omitted, `email` included, except
// `tenantId`, which is always present, `null` when absent), without its cost (it was 5 % of a refresh's CPU).

extension TokenResponse {
    /// The body of a 200 answer to login, refresh, ID-token sign-in and `/auth/token`: the tokens (bearer mode),
    /// `expiresIn`, then `expiresAt` and `refreshExpiresAt` when set, `user`, and `created` last, when set.
    public func jsonBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(
            200 + (accessToken?.utf8.count ?? 0) + (refreshToken?.utf8.count ?? 0)
                + (user.email?.utf8.count ?? 0))
        output.append(UInt8(ascii: "{"))
        // Every optional member is followed by another: `expiresIn` and `user` are always present.
        if let accessToken {
            output.append(contentsOf: #""accessToken":"#.utf8)
            JSONString.append(accessToken, to: &output)
            output.append(UInt8(ascii: ","))
        }
        if let refreshToken {
            output.append(contentsOf: #""refreshToken":"#.utf8)
            JSONString.append(refreshToken, to: &output)
            output.append(UInt8(ascii: ","))
        }
        if let tokenType {
            output.append(contentsOf: #""tokenType":"#.utf8)
            JSONString.append(tokenType, to: &output)
            output.append(UInt8(ascii: ","))
        }
        output.append(contentsOf: #""expiresIn":"#.utf8)
        JSONNumber.append(expiresIn, to: &output)
        if let expiresAt {
            output.append(contentsOf: #","expiresAt":"#.utf8)
            JSONNumber.append(expiresAt, to: &output)
        }
        if let refreshExpiresAt {
            output.append(contentsOf: #","refreshExpiresAt":"#.utf8)
            JSONNumber.append(refreshExpiresAt, to: &output)
        }
        output.append(contentsOf: #","user":"#.utf8)
        user.appendJSON(to: &output)
        if let created { output.append(contentsOf: (created ? #","created":true"# : #","created":false"#).utf8) }
        output.append(UInt8(ascii: "}"))
        return output
    }
}

extension User {
    /// `{"id":…,"email":…,"emailVerified":…,"role":…,"tenantId":…|null}` (no `email` member when nil).
    func appendJSON(to output: inout [UInt8]) {
        output.append(contentsOf: #"{"id":"#.utf8)
        JSONString.append(id, to: &output)
        appendAccountTail(email: email, emailVerified: emailVerified, role: role, tenantID: tenantID, to: &output)
    }
}

extension VendedToken {
    /// The body of a 200 answer to `POST /stream-token`, `GET /moss-token` and `POST /vend/{vendor}`:
    /// `{"token":…,"expiresIn":…,"expiresAt":…}` (`expiresAt` left out when nil).
    public func jsonBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(56 + token.utf8.count)
        output.append(contentsOf: #"{"token":"#.utf8)
        JSONString.append(token, to: &output)
        output.append(contentsOf: #","expiresIn":"#.utf8)
        JSONNumber.append(expiresIn, to: &output)
        if let expiresAt {
            output.append(contentsOf: #","expiresAt":"#.utf8)
            JSONNumber.append(expiresAt, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }
}

extension LiveKitConnectionDetails {
    /// The body of a 201 answer of a LiveKit-shaped vendor: `{"server_url":…,"participant_token":…}`.
    public func jsonBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(48 + serverURL.utf8.count + participantToken.utf8.count)
        output.append(contentsOf: #"{"server_url":"#.utf8)
        JSONString.append(serverURL, to: &output)
        output.append(contentsOf: #","participant_token":"#.utf8)
        JSONString.append(participantToken, to: &output)
        output.append(UInt8(ascii: "}"))
        return output
    }
}

extension MeResponse {
    /// The body of a 200 answer to `GET /auth/me`: `{"sub":…,"email":…,"emailVerified":…,"role":…,
    /// "tenantId":…|null}` (no `email` member when nil).
    public func jsonBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + sub.utf8.count + (email?.utf8.count ?? 0) + (tenantID?.utf8.count ?? 0))
        output.append(contentsOf: #"{"sub":"#.utf8)
        JSONString.append(sub, to: &output)
        appendAccountTail(email: email, emailVerified: emailVerified, role: role, tenantID: tenantID, to: &output)
        return output
    }
}

/// The members `User` and `MeResponse` end with, and the closing brace: `,"email":…,"emailVerified":…,"role":…,
/// "tenantId":…|null}` (`email` omitted when nil).
private func appendAccountTail(
    email: String?, emailVerified: Bool, role: String, tenantID: String?, to output: inout [UInt8]
) {
    if let email {
        output.append(contentsOf: #","email":"#.utf8)
        JSONString.append(email, to: &output)
    }
    output.append(contentsOf: (emailVerified ? #","emailVerified":true"# : #","emailVerified":false"#).utf8)
    output.append(contentsOf: #","role":"#.utf8)
    JSONString.append(role, to: &output)
    output.append(contentsOf: #","tenantId":"#.utf8)
    appendOptional(tenantID, to: &output)
    output.append(UInt8(ascii: "}"))
}

/// A JSON string, or `null` for nil.
private func appendOptional(_ string: String?, to output: inout [UInt8]) {
    if let string { JSONString.append(string, to: &output) } else { output.append(contentsOf: "null".utf8) }
}
