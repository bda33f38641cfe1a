public import AuthAPI
public import HTTPServer

// The request bodies of account deletion (issue 33). `DELETE /auth/account` takes JSON (or nothing); the deletion
// code's two endpoints take JSON or `application/x-www-form-urlencoded`, so that a plain HTML form can post to
// them; both forms are strict: no unknown, repeated or missing member.

extension AccountDeletionRequest {
    /// The body of `DELETE /auth/account`: `{"password"?}`; empty reads as `{}`, and `password` may be `null`.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["password"], optional: true)
        self.init(password: try body.optionalString("password"))
    }
}

extension AccountDeletionConfirmRequest {
    /// The body of `POST /auth/account/deletion/confirm`: `{"email", "code"}`, as JSON or as a form.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let members = try FormOrJSONBody.strings(request, names: ["email", "code"])
        self.init(email: members[0], code: members[1])
    }
}

extension EmailRequest {
    /// The body of `POST /auth/account/deletion`: `{"email"}`, as JSON or as a form.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(formOrJSONBody request: HTTPRequest) throws(ServiceError) {
        self.init(email: try FormOrJSONBody.strings(request, names: ["email"])[0])
    }
}

/// A body of string members given as JSON (`JSONRequestBody`'s rules) or as `application/x-www-form-urlencoded`
/// (`FormParameters`' rules: no parameter twice, no malformed escape, no control character).
enum FormOrJSONBody {
    /// Whether `request` carries a form body (`application/x-www-form-urlencoded`, any parameters, any case).
    static func isForm(_ request: HTTPRequest) -> Bool {
        guard let type = request.headers["Content-Type"] else { return false }
        let mediaType = type.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingSpaces().lowercased() == "application/x-www-form-urlencoded"
    }

    /// The values of `names`, in that order: every one required, no other member allowed.
    static func strings(_ request: HTTPRequest, names: [String]) throws(ServiceError) -> [String] {
        guard isForm(request) else {
            let body = try JSONRequestBody(request, allowed: Set(names))
            var values: [String] = []
            for name in names { values.append(try body.string(name)) }
            return values
        }
        let form = try parameters(request)
        for name in form.names where !names.contains(name) {
            throw .invalidRequest("Unexpected member \"\(JSONRequestBody.printable(name))\".")
        }
        var values: [String] = []
        for name in names {
            guard let value = form[name] else { throw .invalidRequest("Missing member \"\(name)\".") }
            values.append(value)
        }
        return values
    }

    /// The parameters of a form body.
    static func parameters(_ request: HTTPRequest) throws(ServiceError) -> FormParameters {
        guard let text = String(validating: request.body, as: UTF8.self) else {
            throw .invalidRequest("The form body is not UTF-8.")
        }
        do {
            return try FormParameters(text)
        } catch {
            throw .invalidRequest("The form body is malformed or repeats a parameter.")
        }
    }
}
