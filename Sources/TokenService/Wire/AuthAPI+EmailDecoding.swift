public import AuthAPI
public import HTTPServer

// The request bodies of the email endpoints (issue 32), decoded as strictly as the others (`JSONRequestBody`:
// only `application/json`, one object, no duplicate or unknown members); every failure is a `ServiceError`.

extension EmailRequest {
    /// The body of `POST /auth/password/reset` and `POST /auth/email/code`: `{"email"}`, a string.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        self.init(email: try JSONRequestBody(request, allowed: ["email"]).string("email"))
    }
}

extension EmailCodeRequest {
    /// The body of `POST /auth/email/verification/confirm` and `POST /auth/email/change/confirm`: `{"code"}`.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        self.init(code: try JSONRequestBody(request, allowed: ["code"]).string("code"))
    }
}

extension EmailCodeSignInRequest {
    /// The body of `POST /auth/email/code/confirm`: `{"email", "code"}`, both strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["email", "code"])
        self.init(email: try body.string("email"), code: try body.string("code"))
    }
}

extension PasswordResetConfirmRequest {
    /// The body of `POST /auth/password/reset/confirm`: `{"email", "code", "newPassword"}`, all strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["email", "code", "newPassword"])
        self.init(
            email: try body.string("email"), code: try body.string("code"),
            newPassword: try body.string("newPassword"))
    }
}

extension PasswordChangeRequest {
    /// The body of `POST /auth/password/change`: `{"currentPassword", "newPassword"}`, both strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["currentPassword", "newPassword"])
        self.init(
            currentPassword: try body.string("currentPassword"), newPassword: try body.string("newPassword"))
    }
}

extension EmailChangeRequest {
    /// The body of `POST /auth/email/change`: `{"newEmail", "currentPassword"?}`; `currentPassword` may be `null`.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["newEmail", "currentPassword"])
        self.init(
            newEmail: try body.string("newEmail"), currentPassword: try body.optionalString("currentPassword"))
    }
}

extension UserResponse {
    /// The body of a 200 answer to the email confirmations: `{"user":{…}}`, as `JSONEncoder` writes it.
    public func jsonBytes() -> [UInt8] {
        var output: [UInt8] = Array(#"{"user":"#.utf8)
        user.appendJSON(to: &output)
        output.append(UInt8(ascii: "}"))
        return output
    }
}
