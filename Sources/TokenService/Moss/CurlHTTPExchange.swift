import CCurl
import Dispatch
import FoundationEssentials
import Synchronization

/// One HTTP `POST` of a JSON body (Moss) or a form (the OAuth client), or `GET` (an identity provider's JWKS,
/// discovery document or user info) over libcurl that finishes exactly
/// once: with the answer, at the deadline, on cancellation, or as soon as the answer is known to be unacceptable,
/// whichever comes first.
///
/// libcurl rather than URLSession, because the limits must hold inside the transfer: swift-corelibs-foundation
/// goes on reading a body after its task is cancelled (50–135 MB passed on loopback before it stopped). Here the
/// transfer itself stops:
/// - a `Content-Length` over the limit fails on the head (`CURLOPT_MAXFILESIZE_LARGE`);
/// - the write callback refuses the first byte past the limit, which aborts the transfer at once;
/// - a non-2xx status is settled when its head is complete: the header callback aborts before any body is read;
/// - redirects are not followed, only `http` and `https` are spoken, and `CURLOPT_TIMEOUT_MS` bounds connect,
///   send and answer together (sub-second values work); `CURLOPT_CONNECTTIMEOUT_MS` bounds the connect alone when
///   given;
/// - cancelling the caller answers it at once; the transfer stops at libcurl's next progress callback (at most
///   about a second later, sooner while data flows).
///
/// `curl_easy_perform` blocks, so it runs on a dedicated Dispatch queue, never on Swift's cooperative pool.
/// All pointer handling of the Moss upstream is in this file; the easy handle and its header list are owned by
/// one exchange and freed in `deinit`. Nothing from the request body (the project key) or from libcurl's error
/// text ends up in the outcome.
///
/// The failures are ``MossError``'s cases, the transport's vocabulary here: `upstreamUnavailable` (no answer) and
/// `badUpstreamResponse` (an answer over the limit or not HTTP); the JWKS fetcher maps them to its own errors.
///
/// Thread-safety (`@unchecked Sendable`): `handle`, `headerList`, `body`, `headStatus`, `cacheControl` and
/// `refusal` are touched by `init`, then only by the one thread running `curl_easy_perform` (callbacks run on it)
/// and by `deinit`; `abandoned` is an `Atomic`; `waiter` is behind a `Mutex`.
final class CurlHTTPExchange: @unchecked Sendable {
    /// The answer body (empty for a non-2xx status) and HTTP status, or why there is none.
    typealias Outcome = Result<(Data, Int), MossError>

    /// Where blocking transfers run: a queue of its own (threads outside the cooperative pool).
    private static let queue = DispatchQueue(label: "tokenvend.moss.curl", attributes: .concurrent)

    /// `curl_global_init`, once per process before the first handle (a `static let` initialises once, like
    /// `dispatch_once`). Its result needs no check: `curl_easy_init` fails (and is handled) when it failed.
    private static let globalInit: CURLcode = curl_global_init(tv_curl_global_default())

    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let limit: Int
    /// Whether a non-2xx answer is read with its body (the OAuth client) instead of settled at its head (Moss,
    /// the JWKS fetcher).
    private let keepsErrorBodies: Bool
    private var body = Data()
    /// The final (non-1xx) status, once its head is complete.
    private var headStatus: Int?
    /// The last head's `Cache-Control` value (several fields joined with commas, RFC 9110 §5.3), if any.
    private var cacheControl: String?
    /// Why a callback stopped the transfer, when it was the answer's fault.
    private var refusal: MossError?
    private let abandoned = Atomic<Bool>(false)
    private let waiter = Mutex<CheckedContinuation<Outcome, Never>?>(nil)

    /// Sends `json` to `url` and waits at most `timeout` seconds for the answer; cancelling the caller ends the
    /// wait at once.
    ///
    /// - Parameters:
    ///   - url: an `http` or `https` URL.
    ///   - timeout: seconds for connect, send and answer together; positive.
    ///   - limit: the largest body accepted, in bytes.
    /// - Returns: the body and status of a 2xx answer, an empty body and the status of any other answer,
    ///   ``MossError/badUpstreamResponse`` for a body over `limit`, or ``MossError/upstreamUnavailable`` for a
    ///   transport failure (an answer that is not HTTP included), the deadline or cancellation.
    static func post(_ json: Data, to url: URL, timeout: Double, limit: Int) async -> Outcome {
        let fields = ["Content-Type: application/json", "Accept: application/json", "Expect:"]
        guard
            let exchange = CurlHTTPExchange(
                url: url, body: json, fields: fields, timeout: timeout, connectTimeout: nil, limit: limit)
        else {
            return .failure(.upstreamUnavailable)
        }
        return await exchange.run(timeout: timeout)
    }

    /// Fetches `url` with `GET` and waits at most `timeout` seconds for the answer (`connectTimeout` of them for
    /// the connection); cancelling the caller ends the wait at once.
    ///
    /// - Returns: as ``post(_:to:timeout:limit:)``, plus the answer's `Cache-Control` value, if any.
    static func get(
        _ url: URL, timeout: Double, connectTimeout: Double, limit: Int
    ) async -> (outcome: Outcome, cacheControl: String?) {
        let fields = ["Accept: application/jwk-set+json, application/json"]
        guard
            let exchange = CurlHTTPExchange(
                url: url, body: nil, fields: fields, timeout: timeout, connectTimeout: connectTimeout, limit: limit)
        else {
            return (.failure(.upstreamUnavailable), nil)
        }
        let outcome = await exchange.run(timeout: timeout)
        // Read after the answer: set on the transfer's thread, whose finishing the continuation orders before us.
        return (outcome, exchange.answeredCacheControl)
    }

    /// Sends `body` (a `POST`; `nil` is a `GET`) with the header `fields` and waits at most `timeout` seconds
    /// (`connectTimeout` of them for the connection). Unlike ``post(_:to:timeout:limit:)`` and
    /// ``get(_:timeout:connectTimeout:limit:)``, an answer of any status (3xx included: redirects are not
    /// followed) is returned with its body.
    ///
    /// - Parameter fields: complete header lines (`Name: value`), without CR or LF; the caller checks them.
    /// - Returns: the body and status of any HTTP answer, ``MossError/badUpstreamResponse`` for a body over
    ///   `limit`, ``MossError/upstreamUnavailable`` otherwise; plus the answer's `Cache-Control`, if any.
    static func send(
        _ url: URL, body: Data?, fields: [String], timeout: Double, connectTimeout: Double, limit: Int
    ) async -> (outcome: Outcome, cacheControl: String?) {
        guard
            let exchange = CurlHTTPExchange(
                url: url, body: body, fields: fields, timeout: timeout, connectTimeout: connectTimeout, limit: limit,
                keepsErrorBodies: true)
        else {
            return (.failure(.upstreamUnavailable), nil)
        }
        let outcome = await exchange.run(timeout: timeout)
        return (outcome, exchange.answeredCacheControl)
    }

    private func run(timeout: Double) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(continuation, timeout: timeout)
            }
        } onCancel: {
            abandon()
        }
    }

    /// ``cacheControl`` once the transfer finished (nil if the caller was answered before it did).
    private var answeredCacheControl: String? { finished.load(ordering: .acquiring) ? cacheControl : nil }
    private let finished = Atomic<Bool>(false)

    /// Creates the handle and sets every option; `nil` when libcurl refuses one (no transfer then). A `nil` body
    /// is a `GET`.
    private init?(
        url: URL, body json: Data?, fields: [String], timeout: Double, connectTimeout: Double?, limit: Int,
        keepsErrorBodies: Bool = false
    ) {
        _ = Self.globalInit
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.limit = limit
        self.keepsErrorBodies = keepsErrorBodies
        for field in fields {
            // A failed append leaves the list as it was; it would only lose a header, so stop with an error.
            guard let list = curl_slist_append(headerList, field) else { return nil }
            headerList = list
        }
        guard configure(url: url, json: json, timeout: timeout, connectTimeout: connectTimeout) else { return nil }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
    }

    private func configure(url: URL, json: Data?, timeout: Double, connectTimeout: Double?) -> Bool {
        let context = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        let milliseconds = max(1, Int((timeout * 1000).rounded(.up)))
        let connectMilliseconds = connectTimeout.map { max(1, Int(($0 * 1000).rounded(.up))) } ?? 0
        // libcurl copies string options; the header list and the context outlive the transfer (owned by self).
        let results: [CURLcode] = [
            url.absoluteString.withCString { tv_curl_setopt_ptr(handle, CURLOPT_URL, $0) },
            tv_curl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            tv_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            tv_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            tv_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            // 0 is libcurl's default (300 s, still within CURLOPT_TIMEOUT_MS).
            tv_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connectMilliseconds),
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
        guard let json else { return results.allSatisfy { $0 == CURLE_OK } }
        let post: [CURLcode] = [
            tv_curl_setopt_long(handle, CURLOPT_POST, 1),
            // The size first, so COPYPOSTFIELDS copies exactly these bytes (binary-safe).
            tv_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(json.count)),
            json.withUnsafeBytes { tv_curl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) },
        ]
        return (results + post).allSatisfy { $0 == CURLE_OK }
    }

    private func start(_ continuation: CheckedContinuation<Outcome, Never>, timeout: Double) {
        let waiting = waiter.withLock { waiter in
            // Cancelled before the continuation existed: there is nothing to run.
            guard !abandoned.load(ordering: .acquiring) else { return false }
            waiter = continuation
            return true
        }
        guard waiting else {
            continuation.resume(returning: .failure(.upstreamUnavailable))
            return
        }
        Self.queue.async { self.perform() }
        // A backstop only (CURLOPT_TIMEOUT_MS is the deadline): the caller is answered by then whatever libcurl
        // does. Held weakly, so a finished exchange is released at once.
        Self.queue.asyncAfter(deadline: .now() + timeout + 1) { [weak self] in self?.abandon() }
    }

    /// Answers the caller with ``MossError/upstreamUnavailable`` unless it has its answer, and makes the
    /// transfer stop at its next callback.
    private func abandon() {
        abandoned.store(true, ordering: .releasing)
        waiter.withLock { $0.take() }?.resume(returning: .failure(.upstreamUnavailable))
    }

    private func perform() {
        let code = curl_easy_perform(handle)
        let outcome = outcome(of: code)
        finished.store(true, ordering: .releasing)
        waiter.withLock { $0.take() }?.resume(returning: outcome)
    }

    private func outcome(of code: CURLcode) -> Outcome {
        if let refusal { return .failure(refusal) }
        if !keepsErrorBodies, let status = headStatus, !(200..<300).contains(status) {
            return .success((Data(), status))
        }
        switch code {
        case CURLE_OK:
            guard let status = headStatus ?? responseCode(), keepsErrorBodies || (200..<300).contains(status),
                status >= 200
            else {
                return .failure(.badUpstreamResponse)
            }
            return .success((body, status))
        case CURLE_FILESIZE_EXCEEDED where keepsErrorBodies:
            return .failure(.badUpstreamResponse)
        case CURLE_FILESIZE_EXCEEDED:
            // A declared Content-Length over the limit. libcurl checks it on that header line, before the blank
            // line that settles `headStatus`, so a refusal (401, 503) with a large body is still reported as one.
            if let status = responseCode(), status >= 100, !(200..<300).contains(status) {
                return .success((Data(), status))
            }
            return .failure(.badUpstreamResponse)
        default:
            // Refused, DNS, TLS, dropped, not HTTP, timed out, aborted because the caller left.
            return .failure(.upstreamUnavailable)
        }
    }

    private func responseCode() -> Int? {
        var code = 0
        guard tv_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK, code > 0 else { return nil }
        return code
    }

    /// Body bytes: appended while they fit; past the limit the transfer stops (returning 0 → CURLE_WRITE_ERROR).
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !abandoned.load(ordering: .relaxed) else { return 0 }
        guard body.count + bytes.count <= limit else {
            refusal = .badUpstreamResponse
            body = Data()
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// One header line. At the blank line that ends a final (non-1xx) head, a non-2xx status settles the
    /// exchange: the transfer stops before any of its body is read.
    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !abandoned.load(ordering: .relaxed) else { return 0 }
        noteCacheControl(bytes)
        guard bytes.allSatisfy({ $0 == 0x0D || $0 == 0x0A }), let status = responseCode(), status >= 200 else {
            return bytes.count
        }
        headStatus = status
        return (200..<300).contains(status) || keepsErrorBodies ? bytes.count : 0
    }

    /// Keeps the current head's `Cache-Control`.
    private func noteCacheControl(_ bytes: UnsafeRawBufferPointer) {
        switch Self.cacheControlLine(bytes) {
        case .statusLine: cacheControl = nil
        case .cacheControl(let value): cacheControl = cacheControl.map { "\($0), \(value)" } ?? value
        case .other: break
        }
    }

    private static func exchange(_ context: UnsafeMutableRawPointer?) -> CurlHTTPExchange? {
        context.map { Unmanaged<CurlHTTPExchange>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let writeBody: curl_write_callback = { data, size, count, context in
        guard let exchange = CurlHTTPExchange.exchange(context) else { return 0 }
        return exchange.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    private static let writeHeader: curl_write_callback = { data, size, count, context in
        guard let exchange = CurlHTTPExchange.exchange(context) else { return 0 }
        return exchange.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    /// Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK) once the caller has left.
    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let exchange = CurlHTTPExchange.exchange(context) else { return 1 }
        return exchange.abandoned.load(ordering: .relaxed) ? 1 : 0
    }
}
