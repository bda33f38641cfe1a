extension HTTPResponse {
    /// 404 `not_found`: no route has this path. The one definition for connections and the socket-free driver.
    static let notFound = HTTPResponse.error(status: .notFound, code: "not_found", message: "No such resource.")

    /// 405 `method_not_allowed` with `Allow` listing the methods the path has.
    static func methodNotAllowed(allow: [HTTPMethod]) -> HTTPResponse {
        .error(
            status: .methodNotAllowed, code: "method_not_allowed",
            message: "The method is not allowed for this resource.",
            headers: ["Allow": allow.map(\.rawValue).joined(separator: ", ")])
    }
}
