/// Sends each message to an SMTP server through libcurl: `smtp://` with STARTTLS, `smtps://` with TLS from the
/// first byte, AUTH when a username is set.
///
/// - `smtp://` requires STARTTLS (`CURLUSESSL_ALL`: a server that does not offer it gets nothing), except to a
///   loopback host or with ``SMTPSettings/allowInsecure``, where STARTTLS is used when offered
///   (`CURLUSESSL_TRY`). Certificates are verified either way (against ``SMTPSettings/caFile`` when set).
/// - ``SMTPSettings/connectTimeout`` bounds the connection, ``SMTPSettings/messageTimeout`` the whole exchange.
/// - Each message has its own connection and easy handle; `curl_easy_perform` runs on a serial Dispatch queue of
///   its own (OutboundHTTP's `CurlTransfer`), never on Swift's cooperative pool. Cancelling the caller answers it
///   at once.
/// - Failures are classified from libcurl's result and the last SMTP reply code: a 5xx reply is permanent
///   (except to AUTH: a refused login, or 530 authentication required, is transient, so messages wait while the
///   operator fixes the credentials);
///   a 4xx reply, connection refused, a name that does not resolve, a timeout and a TLS failure are transient.
///
/// ```swift
/// let transport = SMTPTransport(SMTPSettings(url: "smtps://smtp.example.com", username: "u", password: p))
/// try await transport.deliver(message.encoded(), from: "no-reply@example.com", to: "ada@example.com")
/// ```
public final class SMTPTransport: MailTransport {
    private let settings: SMTPSettings
    private let url: Result<SMTPURL, SMTPURLError>

    /// A transport for `settings` (checked again here: a refused URL fails every delivery as transient).
    public init(_ settings: SMTPSettings) {
        self.settings = settings
        do {
            url = .success(try SMTPURL(settings.url, allowInsecure: settings.allowInsecure))
        } catch {
            url = .failure(error)
        }
    }

    /// Sends `message` to `to` with `from` as the envelope sender.
    ///
    /// - Throws: ``MailDeliveryError``; see the type's classification.
    public func deliver(_ message: [UInt8], from: String, to: String) async throws(MailDeliveryError) -> MailReceipt {
        let url: SMTPURL
        switch self.url {
        case .success(let parsed): url = parsed
        case .failure(let error):
            throw MailDeliveryError(kind: .transient, reason: "email.smtp.url refused: \(error.reason)")
        }
        guard Mailbox.isAddress(from), Mailbox.isAddress(to) else {
            throw MailDeliveryError(kind: .permanent, reason: "envelope address refused")
        }
        try await SMTPExchange.send(message, from: from, to: to, url: url, settings: settings)
        return MailReceipt()
    }
}
