public import AuthAPI
public import HTTPServer

// The request bodies of API.md, decoded strictly through `JSONRequestBody` (only `application/json`, one
// object, no duplicate or unknown members); every failure is a `ServiceError` with API.md's code.

extension LoginRequest {
    /// The body of `POST /auth/login`: `{"email", "password"}`, both strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["email", "password"])
        self.init(email: try body.string("email"), password: try body.string("password"))
    }
}

extension RefreshRequest {
    /// The body of `POST /auth/refresh`: `{"refreshToken"}`, a string.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        self.init(refreshToken: try JSONRequestBody(request, allowed: ["refreshToken"]).string("refreshToken"))
    }

    /// The optional body of `POST /auth/logout`: empty, or `{"refreshToken"}` with a string or `null`.
    /// - Returns: The refresh token, or nil when the body is empty or the member absent or `null`.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public static func logoutToken(body request: HTTPRequest) throws(ServiceError) -> String? {
        try JSONRequestBody(request, allowed: ["refreshToken"], optional: true).optionalString("refreshToken")
    }
}

extension RegisterRequest {
    /// The body of `POST /auth/register`: `{"email", "password", "tenantId"?}`; `tenantId` may be `null` (the
    /// handler refuses any other value: tenants are the operator's).
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    ///
    /// The email is checked before the other members are read, so a body with several faults names the email
    /// first, as the server always has.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["email", "password", "tenantId"])
        let email = try body.string("email")
        guard EmailAddress(email) != nil else { throw ServiceError.invalidRequest("The email address is not valid.") }
        self.init(email: email, password: try body.string("password"), tenantID: try body.optionalString("tenantId"))
    }
}

extension StreamTokenRequest {
    /// The optional body of `POST /stream-token`: empty, or `{"customerIds"?: {name: string}}`.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        self.init(
            customerIDs: try JSONRequestBody(request, allowed: ["customerIds"], optional: true)
                .optionalStringMap("customerIds"))
    }
}

extension IDTokenSignInRequest {
    /// The longest `authorizationCode` accepted, in bytes (Apple's are far shorter).
    static let maximumAuthorizationCodeBytes = 4_096

    /// The body of `POST /auth/idtoken`: `{"provider", "idToken", "nonce"?, "name"?: {"givenName"?,
    /// "familyName"?}, "authorizationCode"?}`; `nonce`, `name`, the name's members and `authorizationCode` may be
    /// `null`; an empty `authorizationCode` counts as absent.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(
            request, allowed: ["provider", "idToken", "nonce", "name", "authorizationCode"])
        var name: PersonName?
        if let members = try body.optionalObject("name", allowed: ["givenName", "familyName"]) {
            name = PersonName(
                givenName: try members.optionalString("givenName"), familyName: try members.optionalString("familyName")
            )
        }
        var code = try body.optionalString("authorizationCode")
        if code?.isEmpty == true { code = nil }
        if let code, code.utf8.count > Self.maximumAuthorizationCodeBytes {
            throw .invalidRequest("authorizationCode must be at most \(Self.maximumAuthorizationCodeBytes) bytes.")
        }
        self.init(
            provider: try body.string("provider"), idToken: try body.string("idToken"),
            nonce: try body.optionalString("nonce"), name: name, authorizationCode: code)
    }
}
