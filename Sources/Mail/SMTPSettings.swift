/// Where and how ``SMTPTransport`` sends: `email.smtp.*`.
public struct SMTPSettings: Sendable {
    /// `smtp://host[:port]` (STARTTLS; required unless the host is loopback or ``allowInsecure``) or
    /// `smtps://host[:port]` (TLS from the first byte). No path, query or credentials.
    public var url: String
    /// The AUTH user; AUTH is used exactly when set.
    public var username: String?
    /// The AUTH password.
    public var password: String?
    /// A PEM file of the certificate authorities to trust instead of the system's (`CURLOPT_CAINFO`).
    public var caFile: String?
    /// Lets plain `smtp://` go to a host that is not loopback, using STARTTLS only when the server offers it.
    /// Default: `false`.
    public var allowInsecure: Bool
    /// Time to open the connection (DNS, TCP, and the TLS handshake of `smtps`). Default: 10 s.
    public var connectTimeout: Duration
    /// Time for the whole message, connection included. Default: 60 s.
    public var messageTimeout: Duration

    /// Settings; the URL is checked by ``MailConfiguration`` at startup and again by the transport.
    public init(
        url: String, username: String? = nil, password: String? = nil, caFile: String? = nil,
        allowInsecure: Bool = false, connectTimeout: Duration = .seconds(10), messageTimeout: Duration = .seconds(60)
    ) {
        self.url = url
        self.username = username
        self.password = password
        self.caFile = caFile
        self.allowInsecure = allowInsecure
        self.connectTimeout = connectTimeout
        self.messageTimeout = messageTimeout
    }
}
