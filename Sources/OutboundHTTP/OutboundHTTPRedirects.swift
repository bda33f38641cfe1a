/// Which redirects ``OutboundHTTPClient`` follows.
public enum OutboundHTTPRedirects: Sendable {
    /// None: a 3xx answer is returned as it is. The default.
    case none
    /// Up to `maximum` redirects (301, 302, 303, 307, 308), each only to a URL that the original URL's rule
    /// accepts (``OutboundURL/init(_:rule:)``), never from `https` to `http`, and that `accepts` approves; any
    /// other target fails the exchange with
    /// ``OutboundHTTPError/redirectRefused``. 301/302/303 turn a `POST` into a `GET` without body (303: any method
    /// but `HEAD`); 307/308 keep method and body. Header fields go to the same origin only: on a redirect to
    /// another origin, `Authorization` and `Cookie` are dropped.
    case follow(maximum: Int, accepts: @Sendable (OutboundURL) -> Bool)

    /// `follow` up to `maximum` redirects, to any URL the rule accepts (never from `https` to `http`).
    public static func follow(maximum: Int) -> OutboundHTTPRedirects {
        .follow(maximum: maximum, accepts: { _ in true })
    }

    var maximum: Int {
        switch self {
        case .none: 0
        case .follow(let maximum, _): max(0, maximum)
        }
    }

    /// The request to send after a redirect answer.
    func next(after request: OutboundHTTPRequest, status: Int, location: String?) throws(OutboundHTTPError)
        -> OutboundHTTPRequest
    {
        guard case .follow(_, let accepts) = self, let location,
            let target = try? OutboundURL(location, rule: request.url.rule),
            !(request.url.scheme == .https && target.scheme == .http), accepts(target)
        else { throw .redirectRefused }
        var next = request
        next.url = target
        let becomesGet =
            (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            next.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        if !target.isSameOrigin(as: request.url) {
            next.headers.removeAll { ["authorization", "cookie"].contains($0.name.lowercased()) }
        }
        return next
    }
}
