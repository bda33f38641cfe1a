/// The access token a request presents and how it came.
struct AccessCredential: Sendable, Equatable {
    /// How the token came.
    enum Scheme: Sendable, Equatable {
        /// `Authorization: Bearer <token>`.
        case bearer
        /// `Authorization: DPoP <token>` (RFC 9449 §7.1): a token bound to the key of the request's proof.
        case dpop
        /// The `__Host-access_token` cookie (cookie mode; never bound).
        case cookie
    }

    let token: String
    let scheme: Scheme

    /// Whether the token came from the access cookie (then an unsafe method needs the CSRF header).
    var viaCookie: Bool { scheme == .cookie }
}
