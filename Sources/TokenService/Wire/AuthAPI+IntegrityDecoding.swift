public import AuthAPI
public import HTTPServer

// The request bodies of `/integrity/*` (issue 34), decoded as strictly as the others (`JSONRequestBody`: only
// `application/json`, one object, no duplicate or unknown members); every failure is a `ServiceError`. The
// binary members' sizes are checked where they are decoded.

extension AppleAttestationRequest {
    /// The body of `POST /integrity/apple/attest`: `{"keyId", "attestation", "challenge"}`, all strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["keyId", "attestation", "challenge"])
        self.init(
            keyId: try body.string("keyId"), attestation: try body.string("attestation"),
            challenge: try body.string("challenge"))
    }
}

extension AppleAssertionRequest {
    /// The body of `POST /integrity/apple/assert`: `{"keyId", "assertion", "challenge"}`, all strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["keyId", "assertion", "challenge"])
        self.init(
            keyId: try body.string("keyId"), assertion: try body.string("assertion"),
            challenge: try body.string("challenge"))
    }
}

extension AndroidIntegrityRequest {
    /// The body of `POST /integrity/android`: `{"integrityToken", "challenge"}`, both strings.
    /// - Throws: `ServiceError.unsupportedMediaType`, or `.invalidRequest` naming the broken rule.
    public init(body request: HTTPRequest) throws(ServiceError) {
        let body = try JSONRequestBody(request, allowed: ["integrityToken", "challenge"])
        self.init(integrityToken: try body.string("integrityToken"), challenge: try body.string("challenge"))
    }
}
