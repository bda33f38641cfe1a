import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A 2xx answer of `POST /vend/<vendor>`, in either shape the server sends.
enum VendAnswer: Decodable {
    /// 200 `{"token", "expiresIn", "expiresAt"}` (`expiresAt` absent from older servers).
    case token(VendedToken)
    /// 201 `{"server_url", "participant_token"}`: LiveKit's token-endpoint contract.
    case liveKit(LiveKitConnectionDetails)

    private enum ShapeKeys: String, CodingKey {
        case participantToken = "participant_token"
    }

    init(from decoder: any Decoder) throws {
        if try decoder.container(keyedBy: ShapeKeys.self).contains(.participantToken) {
            self = .liveKit(try LiveKitConnectionDetails(from: decoder))
        } else {
            self = .token(try VendedToken(from: decoder))
        }
    }

    /// The token with its expiry and refresh time, and LiveKit's server URL.
    ///
    /// The expiry is `expiresAt` when the answer has it (it does not drift with the time the answer spent in
    /// transit), else receipt plus `expiresIn`; for LiveKit's shape, which states no lifetime, the JWT's `exp`.
    /// - Throws: ``TokenClientError/invalidResponse`` for an empty token, a LiveKit token without a readable
    ///   `exp`, or a server URL that is not an absolute URL.
    func credential(margin: TimeInterval, now: Date) throws -> VendedCredential {
        switch self {
        case .token(let vended):
            guard !vended.token.isEmpty else { throw TokenClientError.invalidResponse }
            let expiresAt =
                vended.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                ?? now.addingTimeInterval(TimeInterval(vended.expiresIn))
            return VendedCredential(
                token: ExpiringToken(
                    token: vended.token, expiresAt: expiresAt, refreshAt: expiresAt.addingTimeInterval(-margin)),
                serverURL: nil)
        case .liveKit(let details):
            guard let url = URL(string: details.serverURL), url.scheme != nil, url.host() != nil,
                let expiresAt = JWTExpiry.expiration(of: details.participantToken)
            else { throw TokenClientError.invalidResponse }
            return VendedCredential(
                token: ExpiringToken(
                    token: details.participantToken, expiresAt: expiresAt,
                    refreshAt: expiresAt.addingTimeInterval(-margin)),
                serverURL: url)
        }
    }
}

/// What a vend yields: the token with its expiry, and, for LiveKit's answer shape, the server to connect to.
struct VendedCredential: Refreshable {
    /// The token, its expiry and the time a provider replaces it.
    var token: ExpiringToken
    /// LiveKit's `server_url`; `nil` for the `{"token", "expiresIn", "expiresAt"}` shape.
    var serverURL: URL?

    var refreshAt: Date { token.refreshAt }
}
