import LoopbackHost
import OutboundHTTP

/// An `email.smtp.url`, checked: `smtp://host[:port]` or `smtps://host[:port]`, nothing else.
struct SMTPURL: Sendable, Equatable {
    /// `smtp` (STARTTLS) or `smtps` (implicit TLS).
    enum Scheme: String, Sendable {
        case smtp, smtps
    }

    /// How TLS is asked of libcurl.
    enum TLS: Sendable, Equatable {
        /// `smtps`: TLS from the first byte.
        case implicit
        /// `smtp`: STARTTLS or fail (`CURLUSESSL_ALL`).
        case required
        /// `smtp` to a loopback host or with `allowInsecure`: STARTTLS when offered (`CURLUSESSL_TRY`).
        case opportunistic
    }

    let scheme: Scheme
    let host: String
    let port: Int?
    let tls: TLS

    /// The URL given to libcurl, rebuilt from the parts (an IPv6 host in brackets).
    var text: String {
        let authority = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(authority)\(port.map { ":\($0)" } ?? "")"
    }
}

extension SMTPURL {
    /// Parses `text`; `allowInsecure` lets plain `smtp` go to a host that is not loopback. (In an extension, so
    /// tests keep the memberwise initializer.)
    ///
    /// - Throws: the reason, one line (the caller adds `email.smtp.url`).
    init(_ text: String, allowInsecure: Bool) throws(SMTPURLError) {
        guard let separator = text.firstRange(of: "://"),
            let scheme = Scheme(rawValue: text[..<separator.lowerBound].lowercased())
        else { throw SMTPURLError(reason: "expected smtp://host[:port] (STARTTLS) or smtps://host[:port] (TLS)") }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard !rest[..<authorityEnd].contains("@") else {
            throw SMTPURLError(reason: "no credentials in the URL: set email.smtp.username and email.smtp.password")
        }
        guard rest[authorityEnd...].isEmpty || rest[authorityEnd...] == "/" else {
            throw SMTPURLError(reason: "no path, query or fragment: expected \(scheme.rawValue)://host[:port]")
        }
        // The authority is read by OutboundURL's parser, the project's one (host names, [IPv6], port 1–65535).
        guard let parts = try? OutboundURL("https://" + rest[..<authorityEnd], rule: .plainHTTPAnywhere) else {
            throw SMTPURLError(reason: "not a host[:port] (a name, an IPv4 address or [IPv6], port 1–65535)")
        }
        let tls: TLS =
            switch scheme {
            case .smtps: .implicit
            case .smtp: LoopbackHost.contains(parts.host) || allowInsecure ? .opportunistic : .required
            }
        self.init(scheme: scheme, host: parts.host, port: parts.port, tls: tls)
    }
}

/// Why an SMTP URL was refused.
struct SMTPURLError: Error, Equatable {
    let reason: String
}
