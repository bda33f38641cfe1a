import AuthAPI
import HTTPServer

extension AuthorizationCodeTokenRequest {
    /// The members `POST /auth/token` reads.
    static let members: Set<String> = ["grant_type", "code", "code_verifier", "redirect_uri"]
    /// The JSON members accepted: the four read, plus `client_id`, which public clients send and this endpoint
    /// ignores (the code is bound to its redirect URI and PKCE challenge, not to a client).
    static let jsonMembers: Set<String> = members.union(["client_id"])

    /// The body of `POST /auth/token`: a JSON object, or `application/x-www-form-urlencoded` (AppAuth), with
    /// `grant_type`, `code`, `code_verifier` and `redirect_uri`, none twice. A form's other parameters are ignored
    /// (RFC 6749 §3.2: AppAuth always adds `client_id`); JSON accepts `client_id` besides the four and refuses
    /// any other member. A missing member reads as empty (see ``missingMember``), so that the grant type is
    /// checked first.
    /// - Throws: `ServiceError.invalidRequest` (the handler answers it in the RFC 6749 §5.2 shape), or
    ///   `.unsupportedMediaType` for a body of another type.
    init(body request: HTTPRequest) throws(ServiceError) {
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            guard let text = String(validating: request.body, as: UTF8.self) else {
                throw .invalidRequest("The form body is not UTF-8.")
            }
            let form: FormParameters
            do {
                form = try FormParameters(text)
            } catch {
                throw .invalidRequest("The form body is malformed or repeats a parameter.")
            }
            self.init(
                grantType: form["grant_type"] ?? "", code: form["code"] ?? "",
                codeVerifier: form["code_verifier"] ?? "", redirectURI: form["redirect_uri"] ?? "")
            return
        }
        let body = try JSONRequestBody(request, allowed: Self.jsonMembers)
        self.init(
            grantType: try body.optionalString("grant_type") ?? "", code: try body.optionalString("code") ?? "",
            codeVerifier: try body.optionalString("code_verifier") ?? "",
            redirectURI: try body.optionalString("redirect_uri") ?? "")
    }

    /// The first of `grant_type`, `code`, `code_verifier`, `redirect_uri` that is missing (empty), if any.
    var missingMember: String? {
        [("grant_type", grantType), ("code", code), ("code_verifier", codeVerifier), ("redirect_uri", redirectURI)]
            .first { $0.1.isEmpty }?.0
    }
}
