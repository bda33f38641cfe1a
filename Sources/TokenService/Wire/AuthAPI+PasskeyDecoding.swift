import HTTPServer
import StrictJSON

/// The body of a passkey ceremony: `{"credential", "name"?}` (registration and sign-up) or `{"credential"}`
/// (authentication); the credential is read by WebAuthn (`RegistrationCredential`, `AuthenticationCredential`).
struct PasskeyCeremonyBody {
    /// The `credential` member (an object; WebAuthn reads its members).
    let credential: JSONValue
    /// The `name` member, when the body may carry one and does.
    let name: String?

    /// Reads `request`'s body.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    init(_ request: HTTPRequest, allowsName: Bool) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: allowsName ? ["credential", "name"] : ["credential"])
        credential = try body.value("credential")
        guard case .object = credential else { throw .invalidRequest("\"credential\" must be an object.") }
        name = allowsName ? try body.optionalString("name") : nil
    }
}
