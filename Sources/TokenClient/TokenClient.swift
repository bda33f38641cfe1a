// `TokenClient` is `TokenClientCore` (the session, the stores, the token providers, web sign-in, the wire coding and
// the `HTTPTransport` seam, on FoundationEssentials) plus what needs `URLSession`: `URLSessionTransport`, the
// `URLRequest` faces of the session, and the browser sheet of AuthenticationServices. Apps import this module
// only, as `NIO` re-exports `NIOCore`.
@_exported public import TokenClientCore
