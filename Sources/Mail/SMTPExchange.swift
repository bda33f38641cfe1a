import CCurl
import OutboundHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SMTP transaction over a libcurl easy handle: MAIL FROM, RCPT TO, DATA with the message. All pointer
/// handling of the SMTP transport is in this file; the handle and the recipient list are owned here and freed in
/// `deinit`. Nothing from the message, the password or the server's text ends up in the outcome.
///
/// Thread-safety (`@unchecked Sendable`): `handle`, `recipients`, `message` and `offset` are touched by `init`,
/// then only by the one thread running `curl_easy_perform` (callbacks run on it) and by `deinit`; `transfer` is
/// `Sendable`.
@safe final class SMTPExchange: @unchecked Sendable {
    typealias Outcome = Result<Void, MailDeliveryError>

    private let handle: UnsafeMutableRawPointer
    private var recipients: UnsafeMutablePointer<curl_slist>?
    private let message: [UInt8]
    private var offset = 0
    private let transfer = CurlTransfer<Outcome>(
        timedOut: .failure(MailDeliveryError(kind: .transient, reason: "timed out")),
        cancelled: .failure(MailDeliveryError(kind: .transient, reason: "cancelled")))

    /// Sends `message`; returns when the server accepted it.
    static func send(
        _ message: [UInt8], from: String, to: String, url: SMTPURL, settings: SMTPSettings
    ) async throws(MailDeliveryError) {
        guard let exchange = SMTPExchange(message, from: from, to: to, url: url, settings: settings) else {
            throw MailDeliveryError(kind: .transient, reason: "transfer could not be set up")
        }
        try await exchange.transfer.run(label: "tokenvend.mail.smtp", deadline: settings.messageTimeout) {
            exchange.outcome(of: unsafe curl_easy_perform(exchange.rawHandle))
        }.get()
    }

    /// Creates the handle and sets every option; `nil` when libcurl refuses one (no transfer then).
    private init?(_ message: [UInt8], from: String, to: String, url: SMTPURL, settings: SMTPSettings) {
        Curl.initialize()
        guard let handle = unsafe curl_easy_init() else { return nil }
        unsafe self.handle = handle
        self.message = message
        guard let list = unsafe curl_slist_append(nil, "<\(to)>") else { return nil }
        unsafe recipients = list
        guard configure(from: from, url: url, settings: settings) else { return nil }
    }

    deinit {
        unsafe curl_easy_cleanup(rawHandle)
        unsafe curl_slist_free_all(recipients)
    }

    private var rawHandle: UnsafeMutableRawPointer { unsafe handle }

    private func configure(from: String, url: SMTPURL, settings: SMTPSettings) -> Bool {
        let handle = unsafe rawHandle
        let context = unsafe UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        let useSSL = url.tls == .opportunistic ? CURLUSESSL_TRY : CURLUSESSL_ALL
        // libcurl copies string options; the recipient list and the context outlive the transfer (owned by self).
        var results: [CURLcode] = unsafe [
            tv_curl_setopt_ptr(handle, CURLOPT_URL, url.text),
            tv_curl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            tv_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            tv_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Curl.milliseconds(settings.messageTimeout)),
            tv_curl_setopt_long(
                handle, CURLOPT_CONNECTTIMEOUT_MS,
                Curl.milliseconds(min(settings.connectTimeout, settings.messageTimeout))),
            tv_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(useSSL.rawValue)),
            tv_curl_setopt_ptr(handle, CURLOPT_MAIL_FROM, "<\(from)>"),
            tv_curl_setopt_ptr(handle, CURLOPT_MAIL_RCPT, recipients),
            tv_curl_setopt_long(handle, CURLOPT_UPLOAD, 1),
            tv_curl_setopt_off_t(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)),
            tv_curl_setopt_read_callback(handle, Self.read),
            tv_curl_setopt_ptr(handle, CURLOPT_READDATA, context),
            tv_curl_setopt_xferinfo_callback(handle, Self.progress),
            tv_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context),
            tv_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
        ]
        if let caFile = settings.caFile {
            results.append(unsafe tv_curl_setopt_ptr(handle, CURLOPT_CAINFO, caFile))
        }
        if let username = settings.username {
            results += unsafe [
                tv_curl_setopt_ptr(handle, CURLOPT_USERNAME, username),
                tv_curl_setopt_ptr(handle, CURLOPT_PASSWORD, settings.password ?? ""),
            ]
        }
        return results.allSatisfy { $0 == CURLE_OK }
    }

    private func outcome(of code: CURLcode) -> Outcome {
        if code == CURLE_OK { return .success(()) }
        return .failure(Self.error(for: code, reply: replyCode(), osErrno: osErrno()))
    }

    /// The delivery error for a failed transfer: the SMTP reply code first (5xx permanent, 4xx transient), then
    /// libcurl's result code, worded by OutboundHTTP's classification.
    static func error(for code: CURLcode, reply: Int, osErrno: Int) -> MailDeliveryError {
        switch (code, reply) {
        case (CURLE_LOGIN_DENIED, _):
            return MailDeliveryError(kind: .transient, reason: "SMTP login refused (\(reply)): check the credentials")
        case (CURLE_USE_SSL_FAILED, _):
            return MailDeliveryError(kind: .transient, reason: "the SMTP server does not offer STARTTLS")
        case (_, 530):
            // "Authentication required" (RFC 4954): a configuration fault like a refused login, not the message's.
            return MailDeliveryError(
                kind: .transient, reason: "SMTP server requires a login (530): set email.smtp.username")
        case (_, 500...599):
            return MailDeliveryError(kind: .permanent, reason: "SMTP server refused the message (\(reply))")
        case (_, 400...499):
            return MailDeliveryError(kind: .transient, reason: "SMTP server deferred the message (\(reply))")
        default:
            let reason =
                switch OutboundHTTPError(curlCode: code, osErrno: osErrno) {
                case .malformedResponse: "unexpected SMTP reply"
                case .connectionLost: "connection lost before the message was accepted"
                case let error: error.description
                }
            return MailDeliveryError(kind: .transient, reason: reason)
        }
    }

    private func replyCode() -> Int {
        var code = 0
        return unsafe tv_curl_getinfo_long(rawHandle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
    }

    private func osErrno() -> Int {
        var value = 0
        return unsafe tv_curl_getinfo_long(rawHandle, CURLINFO_OS_ERRNO, &value) == CURLE_OK ? value : 0
    }

    /// Copies the next part of the message into libcurl's buffer; 0 at the end.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard !transfer.isAbandoned else { return Int(CURL_READFUNC_ABORT) }
        let count = min(buffer.count, message.count - offset)
        guard count > 0 else { return 0 }
        unsafe message.withUnsafeBytes { source in
            unsafe buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
        }
        offset += count
        return count
    }

    private static func exchange(_ context: UnsafeMutableRawPointer?) -> SMTPExchange? {
        unsafe context.map { unsafe Unmanaged<SMTPExchange>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let read: curl_read_callback = { data, size, count, context in
        guard let exchange = unsafe SMTPExchange.exchange(context), let data = unsafe data else {
            return Int(CURL_READFUNC_ABORT)
        }
        return unsafe exchange.fill(UnsafeMutableRawBufferPointer(start: data, count: size * count))
    }

    /// Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK) once the caller has left.
    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let exchange = unsafe SMTPExchange.exchange(context) else { return 1 }
        return exchange.transfer.isAbandoned ? 1 : 0
    }
}
