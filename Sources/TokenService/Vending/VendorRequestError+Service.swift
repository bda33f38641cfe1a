import VendorTokens

extension VendorRequestError {
    /// The answer for a request a template refused (API.md "POST /vend/{vendor}").
    var serviceError: ServiceError {
        switch self {
        case .undeclaredParameter(let name, let reason?):
            .invalidRequest("\"\(JSONRequestBody.printable(name))\" is not accepted: \(reason).")
        case .undeclaredParameter(let name, nil):
            .invalidRequest("Unexpected member \"\(JSONRequestBody.printable(name))\".")
        case .missingParameter(let name): .invalidRequest("Missing member \"\(name)\".")
        case .invalidParameter(let name, let reason): .invalidRequest("\"\(name)\": \(reason).")
        case .notPermitted: .insufficientScope
        case .unavailable: .unavailable("This vendor is configured without keys.", retryAfter: 3600)
        }
    }
}
