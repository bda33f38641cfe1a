import OutboundHTTP
public import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension IdentityProviderConfiguration {
    /// Checks one member's value and words the refusal with the member's path (`string`, `secret`, `choice` and
    /// `stringList` are StrictJSON's `JSONValueCheck`, shared with TokenService's configuration).
    struct Member: JSONValueCheck {
        /// The member path inside the section (`apple.audiences`).
        let path: String

        func fail(_ reason: String) -> IdentityProviderConfigurationError {
            .invalid(path: path, reason: reason)
        }

        /// A provider URL: https, or http to a loopback host (tests, a local proxy); never with credentials.
        func url(_ value: JSONValue) throws(IdentityProviderConfigurationError) -> String {
            let text = try string(value)
            guard OutboundURL.accepts(text), let url = URL(string: text) else {
                throw fail("expected an https URL (http only to localhost, 127.0.0.1 or ::1), got \(value.summary)")
            }
            return url.absoluteString
        }

        /// A non-empty list of `RS256` and `ES256`; `none` and the HMAC algorithms are refused by name.
        func algorithms(_ value: JSONValue) throws(IdentityProviderConfigurationError) -> [String] {
            let names = try stringList(value)
            for name in names where !["RS256", "ES256"].contains(name) {
                let upper = name.uppercased()
                if upper == "NONE" || upper.hasPrefix("HS") {
                    throw fail(
                        "\(JSONValue.string(name).summary) is never accepted for ID tokens (anyone holding "
                            + "the public key could forge them); use RS256 or ES256")
                }
                throw fail("expected RS256 or ES256, got \(JSONValue.string(name).summary)")
            }
            return names
        }

        /// A tenant id: a string of 1 to 128 bytes, the rule of `tokenvend users set-tenant`.
        func tenant(_ value: JSONValue) throws(IdentityProviderConfigurationError) -> String {
            guard case .string(let text) = value else {
                throw fail("expected a tenant id, a string of 1 to 128 bytes, got \(value.typeDescription)")
            }
            guard (1...128).contains(text.utf8.count) else {
                throw fail("expected a tenant id of 1 to 128 bytes, got \(text.utf8.count) bytes")
            }
            return text
        }
    }
}
