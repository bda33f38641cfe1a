/// Hands an encoded message to the next hop: an SMTP server (``SMTPTransport``) or a folder (``FileTransport``).
///
/// Implementations are safe to call from several tasks at once, never block the calling task's thread, and
/// classify every failure as ``MailDeliveryError/Kind/transient`` (try again later) or
/// ``MailDeliveryError/Kind/permanent`` (this message will never go through).
public protocol MailTransport: Sendable {
    /// Delivers `message` (``MailMessage/encoded()``) from the envelope sender `from` to the envelope recipient
    /// `to` (bare addresses, no display names).
    ///
    /// - Returns: where the message went, when the transport knows (the file transport's path).
    /// - Throws: ``MailDeliveryError`` with its kind and a reason safe to log.
    func deliver(_ message: [UInt8], from: String, to: String) async throws(MailDeliveryError) -> MailReceipt
}

/// What a transport tells about a delivered message.
public struct MailReceipt: Sendable {
    /// Where the message is: the `.eml` file's path for ``FileTransport``; `nil` for SMTP.
    public var location: String?

    /// A receipt.
    public init(location: String? = nil) {
        self.location = location
    }
}

/// Why a message was not delivered, and whether trying again can help.
///
/// `reason` is one short line, safe to log: it never holds the message, a code, a password or a server's
/// free text (only the SMTP reply code, such as `550`).
public struct MailDeliveryError: Error, Sendable, CustomStringConvertible {
    /// Whether to try again.
    public enum Kind: Sendable {
        /// Try again later: connection refused, name not resolved, timed out, TLS failed, a 4xx reply, a
        /// refused login (the operator can fix the credentials while messages wait).
        case transient
        /// Never try again: the server refused this message or recipient with a 5xx reply, or the message cannot
        /// be sent as it is.
        case permanent
    }

    /// Whether to try again.
    public var kind: Kind
    /// One line, safe to log.
    public var reason: String

    /// An error of `kind`.
    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// `transient: <reason>` or `permanent: <reason>`.
    public var description: String { "\(kind == .transient ? "transient" : "permanent"): \(reason)" }
}
