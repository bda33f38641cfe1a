/// Maps method and path to handlers, with `:name` path parameters; answers 404 `not_found` and
/// 405 `method_not_allowed` (with `Allow`) itself. `HEAD` falls back to the `GET` handler (body omitted).
///
/// Build it before `HTTPServer.start()`; it is immutable afterwards.
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _, _ in .json(bytes: Array(#"{"status":"ok"}"#.utf8)) }
/// router.delete("/auth/sessions/:id") { request, context async throws in
///     try await sessions.revoke(request.parameters["id"] ?? "")
///     return HTTPResponse(status: .noContent)
/// }
/// ```
public struct Router: Sendable {
    /// A synchronous handler runs inline on the connection's event loop: use it for quick, non-blocking work.
    public typealias SyncHandler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse
    /// An async handler runs in a `Task`; its response is posted back to the connection in order.
    public typealias AsyncHandler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
    /// A handler that runs inline on the event loop and either answers at once or hands back async work
    /// (e.g. a cache hit answered inline, a miss fetched in a `Task`).
    public typealias SyncOrAsyncHandler = @Sendable (HTTPRequest, RequestContext) throws -> HandlerResult

    /// A handler of either flavour.
    public enum Handler: Sendable {
        /// Runs inline on the connection's event loop.
        case sync(SyncHandler)
        /// Runs in a `Task`; reading pauses on that connection until its response is queued.
        case async(AsyncHandler)
        /// Runs inline like `sync`; when it returns `.async`, that work runs like an `async` handler.
        case syncOrAsync(SyncOrAsyncHandler)
    }

    /// What `match` found.
    public enum Match: Sendable {
        /// A route matched; `parameters` holds the captured path segments.
        case handler(Handler, parameters: [String: String], route: String)
        /// The path exists but not for this method; `allow` lists the methods that do (for `Allow`).
        case methodNotAllowed(allow: [HTTPMethod])
        /// No route has this path.
        case notFound
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    typealias MethodTable = [(method: HTTPMethod, handler: Handler)]

    var staticRoutes: [String: MethodTable] = [:]
    var parameterRoutes: [(segments: [Segment], pattern: String, table: MethodTable)] = []

    /// Creates an empty router.
    public init() {}

    /// Adds a route. Path segments starting with `:` capture parameters. Precondition: path starts with `/`
    /// and the method/path pair is new.
    public mutating func on(_ method: HTTPMethod, _ path: String, _ handler: Handler) {
        precondition(path.hasPrefix("/"), "route paths start with /")
        let segments = Self.segments(path).map {
            $0.hasPrefix(":") ? Segment.parameter(String($0.dropFirst())) : .literal($0)
        }
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            precondition(!(staticRoutes[path] ?? []).contains { $0.method == method }, "duplicate route")
            staticRoutes[path, default: []].append((method, handler))
        } else if let index = parameterRoutes.firstIndex(where: { $0.segments == segments }) {
            precondition(!parameterRoutes[index].table.contains { $0.method == method }, "duplicate route")
            parameterRoutes[index].table.append((method, handler))
        } else {
            parameterRoutes.append((segments, path, [(method, handler)]))
        }
    }

    /// Finds the handler for a method and path.
    public func match(_ method: HTTPMethod, path: String) -> Match {
        if let table = staticRoutes[path] { return Self.select(method, in: table, parameters: [:], route: path) }
        guard !parameterRoutes.isEmpty else { return .notFound }
        let parts = Self.segments(path)
        for route in parameterRoutes where route.segments.count == parts.count {
            var parameters: [String: String] = [:]
            var matched = true
            for (segment, part) in zip(route.segments, parts) {
                switch segment {
                case .literal(let literal) where literal == part: continue
                case .parameter(let name) where !part.isEmpty: parameters[name] = part
                default: matched = false
                }
                if !matched { break }
            }
            if matched { return Self.select(method, in: route.table, parameters: parameters, route: route.pattern) }
        }
        return .notFound
    }

    static func select(_ method: HTTPMethod, in table: MethodTable, parameters: [String: String], route: String)
        -> Match
    {
        for entry in table where entry.method == method {
            return .handler(entry.handler, parameters: parameters, route: route)
        }
        if method == .head {
            for entry in table where entry.method == .get {
                return .handler(entry.handler, parameters: parameters, route: route)
            }
        }
        var allow = table.map(\.method)
        if allow.contains(.get) && !allow.contains(.head) { allow.append(.head) }
        return .methodNotAllowed(allow: allow)
    }

    static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }
}

extension Router {
    /// Adds a synchronous `GET` route.
    public mutating func get(_ path: String, _ handler: @escaping SyncHandler) { on(.get, path, .sync(handler)) }
    /// Adds an async `GET` route.
    public mutating func get(_ path: String, _ handler: @escaping AsyncHandler) { on(.get, path, .async(handler)) }
    /// Adds a synchronous `POST` route.
    public mutating func post(_ path: String, _ handler: @escaping SyncHandler) { on(.post, path, .sync(handler)) }
    /// Adds an async `POST` route.
    public mutating func post(_ path: String, _ handler: @escaping AsyncHandler) { on(.post, path, .async(handler)) }
    /// Adds a synchronous `PUT` route.
    public mutating func put(_ path: String, _ handler: @escaping SyncHandler) { on(.put, path, .sync(handler)) }
    /// Adds an async `PUT` route.
    public mutating func put(_ path: String, _ handler: @escaping AsyncHandler) { on(.put, path, .async(handler)) }
    /// Adds a synchronous `PATCH` route.
    public mutating func patch(_ path: String, _ handler: @escaping SyncHandler) { on(.patch, path, .sync(handler)) }
    /// Adds an async `PATCH` route.
    public mutating func patch(_ path: String, _ handler: @escaping AsyncHandler) {
        on(.patch, path, .async(handler))
    }
    /// Adds a synchronous `DELETE` route.
    public mutating func delete(_ path: String, _ handler: @escaping SyncHandler) {
        on(.delete, path, .sync(handler))
    }
    /// Adds an async `DELETE` route.
    public mutating func delete(_ path: String, _ handler: @escaping AsyncHandler) {
        on(.delete, path, .async(handler))
    }
}
