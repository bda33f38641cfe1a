import CCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP exchange over a libcurl easy handle that finishes exactly once: with the answer, at the deadline, on
/// cancellation, or as soon as the answer is known to be unacceptable (over the limit), whichever comes first.
/// ``OutboundHTTPClient/send(_:)`` runs one per request (and one per redirect followed).
///
/// The limits hold inside the transfer:
/// - a `Content-Length` over the limit fails on the head (`CURLOPT_MAXFILESIZE_LARGE`);
/// - the write callback refuses the first byte past the limit, which aborts the transfer at once;
/// - a status the caller settles on its head (`settlesOnHead`) stops the transfer at the blank line that ends
///   the head, before any body is read;
/// - libcurl follows no redirect itself, speaks only `http` and `https`, and `CURLOPT_TIMEOUT_MS` bounds connect,
///   send and answer together; `CURLOPT_CONNECTTIMEOUT_MS` bounds the connect;
/// - cancelling the caller answers it at once; the transfer stops at libcurl's next progress callback.
///
/// `curl_easy_perform` blocks, so it runs through ``CurlTransfer`` on a serial Dispatch queue of its own (a thread
/// from Dispatch's overcommitting pool), never on Swift's cooperative pool. All pointer handling of outbound HTTP
/// is in this file; the easy handle and its header list are owned by one exchange and freed in `deinit`. Nothing
/// from the request body or from libcurl's error text ends up in the outcome.
///
/// Thread-safety (`@unchecked Sendable`): `handle`, `headerList`, `body`, `headStatus`, `settled`, `headers`,
/// `headBytes` and `refusal` are touched by `init`, then only by the one thread running `curl_easy_perform`
/// (callbacks run on it) and by `deinit`; `transfer` is `Sendable` (an `Atomic` and a `Mutex`).
@safe final class CurlExchange: @unchecked Sendable {
    /// The response and, for a redirect, libcurl's absolute `Location` target.
    struct Answer: Sendable {
        var response: OutboundHTTPResponse
        var location: String?
    }

    typealias Outcome = Result<Answer, OutboundHTTPError>

    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let url: OutboundURL
    private let limit: Int
    private let settlesOnHead: @Sendable (Int) -> Bool
    private var body: [UInt8] = []
    /// The final (non-1xx) status, once its head is complete.
    private var headStatus: Int?
    /// Whether the transfer was stopped at the end of the head because `settlesOnHead` said so.
    private var settled = false
    /// The current head's fields.
    private var headers: [(name: String, value: String)] = []
    private var headBytes = 0
    /// Why a callback stopped the transfer, when it was the answer's fault.
    private var refusal: OutboundHTTPError?
    private let transfer = CurlTransfer<Outcome>(timedOut: .failure(.timedOut), cancelled: .failure(.cancelled))

    /// Performs `request` within `deadline`; cancelling the caller ends the wait at once.
    static func perform(
        _ request: OutboundHTTPRequest, deadline: Duration, connectTimeout: Duration, limit: Int,
        settlesOnHead: @escaping @Sendable (Int) -> Bool
    ) async throws(OutboundHTTPError) -> Answer {
        guard
            let exchange = CurlExchange(
                request, deadline: deadline, connectTimeout: connectTimeout, limit: limit, settlesOnHead: settlesOnHead)
        else { throw .setupFailed }
        return try await exchange.run(deadline: deadline).get()
    }

    private func run(deadline: Duration) async -> Outcome {
        await transfer.run(label: "tokenvend.outbound-http.transfer", deadline: deadline) {
            self.outcome(of: unsafe curl_easy_perform(self.rawHandle))
        }
    }

    /// Creates the handle and sets every option; `nil` when libcurl refuses one (no transfer then).
    private init?(
        _ request: OutboundHTTPRequest, deadline: Duration, connectTimeout: Duration, limit: Int,
        settlesOnHead: @escaping @Sendable (Int) -> Bool
    ) {
        Curl.initialize()
        guard let handle = unsafe curl_easy_init() else { return nil }
        unsafe self.handle = handle
        self.url = request.url
        self.limit = limit
        self.settlesOnHead = settlesOnHead
        var fields = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        if request.body != nil { fields.append("Expect:") }
        for field in fields {
            // A failed append leaves the list as it was; it would only lose a header, so stop with an error.
            guard let list = unsafe curl_slist_append(headerList, field) else { return nil }
            unsafe headerList = list
        }
        guard configure(request, deadline: deadline, connectTimeout: connectTimeout) else { return nil }
    }

    deinit {
        unsafe curl_easy_cleanup(rawHandle)
        unsafe curl_slist_free_all(headerList)
    }

    private var rawHandle: UnsafeMutableRawPointer { unsafe handle }

    private func configure(_ request: OutboundHTTPRequest, deadline: Duration, connectTimeout: Duration) -> Bool {
        let handle = unsafe rawHandle
        let context = unsafe UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        // libcurl copies string options; the header list and the context outlive the transfer (owned by self).
        var results: [CURLcode] = unsafe [
            tv_curl_setopt_ptr(handle, CURLOPT_URL, request.url.text),
            tv_curl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            tv_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            tv_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            tv_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Curl.milliseconds(deadline)),
            tv_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Curl.milliseconds(connectTimeout)),
            tv_curl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            tv_curl_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1),
            tv_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)),
            tv_curl_setopt_ptr(handle, CURLOPT_USERAGENT, "tokenvend"),
            tv_curl_setopt_ptr(handle, CURLOPT_HTTPHEADER, headerList),
            tv_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, Self.writeBody),
            tv_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, context),
            tv_curl_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, Self.writeHeader),
            tv_curl_setopt_ptr(handle, CURLOPT_HEADERDATA, context),
            tv_curl_setopt_xferinfo_callback(handle, Self.progress),
            tv_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context),
            tv_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
        ]
        let body = request.body ?? (request.method == .post ? [] : nil)
        if let body {
            results += unsafe [
                tv_curl_setopt_long(handle, CURLOPT_POST, 1),
                // The size first, so COPYPOSTFIELDS copies exactly these bytes (binary-safe).
                tv_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                body.withUnsafeBytes { unsafe tv_curl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) },
            ]
        }
        if request.method == .head {
            results.append(unsafe tv_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        } else if request.method != .get && request.method != .post || (request.method == .get && body != nil) {
            results.append(unsafe tv_curl_setopt_ptr(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
        }
        return results.allSatisfy { $0 == CURLE_OK }
    }

    private func outcome(of code: CURLcode) -> Outcome {
        if let refusal { return .failure(refusal) }
        if settled, let status = headStatus { return answer(status: status, body: []) }
        switch code {
        case CURLE_OK:
            guard let status = headStatus ?? responseCode(), status >= 200 else { return .failure(.malformedResponse) }
            return answer(status: status, body: body)
        case CURLE_FILESIZE_EXCEEDED:
            // A declared Content-Length over the limit. libcurl checks it on that header line, before the blank
            // line that settles the head, so an answer settled on its head (a 401 or 503 with a large body) is
            // still reported with its status.
            if let status = responseCode(), status >= 200, settlesOnHead(status) {
                return answer(status: status, body: [])
            }
            return .failure(.tooLarge)
        default:
            return .failure(Self.error(for: code, osErrno: osErrno()))
        }
    }

    /// The error a failed transfer's result code stands for.
    static func error(for code: CURLcode, osErrno: Int) -> OutboundHTTPError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_COULDNT_CONNECT: osErrno == Int(ECONNREFUSED) ? .connectionRefused : .unreachable
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .unreachable
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            .tls
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2, CURLE_HTTP2_STREAM,
            CURLE_BAD_CONTENT_ENCODING:
            .malformedResponse
        case CURLE_FILESIZE_EXCEEDED: .tooLarge
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: .cancelled
        case CURLE_OUT_OF_MEMORY, CURLE_FAILED_INIT, CURLE_BAD_FUNCTION_ARGUMENT: .setupFailed
        default: .connectionLost  // nothing received, reset, closed early, send or receive failed
        }
    }

    private func answer(status: Int, body: [UInt8]) -> Outcome {
        let response = OutboundHTTPResponse(status: status, headers: headers, body: body, url: url)
        return .success(Answer(response: response, location: (300..<400).contains(status) ? redirectURL() : nil))
    }

    private func responseCode() -> Int? {
        var code = 0
        guard unsafe tv_curl_getinfo_long(rawHandle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK, code > 0 else {
            return nil
        }
        return code
    }

    private func osErrno() -> Int {
        var value = 0
        return unsafe tv_curl_getinfo_long(rawHandle, CURLINFO_OS_ERRNO, &value) == CURLE_OK ? value : 0
    }

    /// The `Location` of a 3xx answer, resolved against the request's URL by libcurl's URL parser (RFC 3986 §5;
    /// `CURLINFO_REDIRECT_URL` is not set for a transfer stopped on its head).
    private func redirectURL() -> String? {
        guard let location = headers.last(where: { $0.name.lowercased() == "location" })?.value else { return nil }
        return Self.resolve(location, against: url.text)
    }

    /// `reference` resolved against `base`, or nil when libcurl's URL parser refuses either.
    static func resolve(_ reference: String, against base: String) -> String? {
        guard let handle = unsafe curl_url() else { return nil }
        defer { unsafe curl_url_cleanup(handle) }
        guard unsafe curl_url_set(handle, CURLUPART_URL, base, 0) == CURLUE_OK,
            unsafe curl_url_set(handle, CURLUPART_URL, reference, 0) == CURLUE_OK
        else { return nil }
        var resolved: UnsafeMutablePointer<CChar>?
        guard unsafe curl_url_get(handle, CURLUPART_URL, &resolved, 0) == CURLUE_OK, let resolved = unsafe resolved
        else { return nil }
        defer { unsafe curl_free(resolved) }
        return unsafe String(cString: resolved)
    }

    /// Body bytes: appended while they fit; past the limit the transfer stops (returning 0 → CURLE_WRITE_ERROR).
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !transfer.isAbandoned else { return 0 }
        guard body.count + bytes.count <= limit else {
            refusal = .tooLarge
            body = []
            return 0
        }
        unsafe body.append(contentsOf: bytes)
        return bytes.count
    }

    /// One header line. At the blank line that ends a final (non-1xx) head, a status the caller settles on its
    /// head stops the transfer before any of its body is read.
    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !transfer.isAbandoned else { return 0 }
        headBytes += bytes.count
        guard headBytes <= OutboundHTTPClient.maximumHeadBytes else {
            refusal = .tooLarge
            return 0
        }
        switch unsafe Self.headerLine(bytes) {
        case .statusLine: headers = []
        case .field(let name, let value): headers.append((name, value))
        case .continuation(let value):
            if let last = headers.indices.last { headers[last].value += " " + value }
        case .end:
            guard let status = responseCode(), status >= 200 else { return bytes.count }
            headStatus = status
            guard settlesOnHead(status) else { return bytes.count }
            settled = true
            return 0
        case .other: break
        }
        return bytes.count
    }

    private static func exchange(_ context: UnsafeMutableRawPointer?) -> CurlExchange? {
        unsafe context.map { unsafe Unmanaged<CurlExchange>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let writeBody: curl_write_callback = { data, size, count, context in
        guard let exchange = unsafe CurlExchange.exchange(context) else { return 0 }
        return unsafe exchange.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    private static let writeHeader: curl_write_callback = { data, size, count, context in
        guard let exchange = unsafe CurlExchange.exchange(context) else { return 0 }
        return unsafe exchange.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    /// Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK) once the caller has left.
    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let exchange = unsafe CurlExchange.exchange(context) else { return 1 }
        return exchange.transfer.isAbandoned ? 1 : 0
    }
}
