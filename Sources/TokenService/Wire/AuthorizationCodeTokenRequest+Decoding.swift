import AuthAPI
import HTTPServer

extension AuthorizationCodeTokenRequest {
    /// The members `POST /auth/token` accepts.
    static let members: Set<String> = ["grant_type", "code", "code_verifier", "redirect_uri"]

    /// The body of `POST /auth/token`: a JSON object, or `application/x-www-form-urlencoded` (AppAuth), with
    /// `grant_type`, `code`, `code_verifier` and `redirect_uri`; no other member, none twice. A missing member
    /// reads as empty (see ``missingMember``), so that the grant type is checked first.
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
            if let unknown = form.names.first(where: { !Self.members.contains($0) }) {
                throw .invalidRequest("Unexpected parameter \"\(JSONRequestBody.printable(unknown))\".")
            }
            self.init(
                grantType: form["grant_type"] ?? "", code: form["code"] ?? "",
                codeVerifier: form["code_verifier"] ?? "", redirectURI: form["redirect_uri"] ?? "")
            return
        }
        let body = try JSONRequestBody(request, allowed: Self.members)
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
