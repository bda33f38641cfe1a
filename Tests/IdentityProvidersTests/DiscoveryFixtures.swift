/// Discovery documents shaped like the real ones, written by hand from the providers' public documentation
/// (Google: developers.google.com/identity/openid-connect/openid-connect#discovery; GitLab:
/// docs.gitlab.com/ee/integration/openid_connect_provider.html), members trimmed but in the published form.
enum DiscoveryFixtures {
    static let googleURL = "https://accounts.google.com/.well-known/openid-configuration"
    static let googleIssuer = "https://accounts.google.com"
    static let google = """
        {
          "issuer": "https://accounts.google.com",
          "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
          "device_authorization_endpoint": "https://oauth2.googleapis.com/device/code",
          "token_endpoint": "https://oauth2.googleapis.com/token",
          "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
          "revocation_endpoint": "https://oauth2.googleapis.com/revoke",
          "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs",
          "response_types_supported": ["code", "token", "id_token", "code token", "code id_token",
            "token id_token", "code token id_token", "none"],
          "subject_types_supported": ["public"],
          "id_token_signing_alg_values_supported": ["RS256"],
          "scopes_supported": ["openid", "email", "profile"],
          "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
          "claims_supported": ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss",
            "locale", "name", "picture", "sub"],
          "code_challenge_methods_supported": ["plain", "S256"],
          "grant_types_supported": ["authorization_code", "refresh_token",
            "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:jwt-bearer"]
        }
        """

    static let gitlabURL = "https://gitlab.com/.well-known/openid-configuration"
    static let gitlabIssuer = "https://gitlab.com"
    static let gitlab = """
        {
          "issuer": "https://gitlab.com",
          "authorization_endpoint": "https://gitlab.com/oauth/authorize",
          "token_endpoint": "https://gitlab.com/oauth/token",
          "revocation_endpoint": "https://gitlab.com/oauth/revoke",
          "introspection_endpoint": "https://gitlab.com/oauth/introspect",
          "userinfo_endpoint": "https://gitlab.com/oauth/userinfo",
          "jwks_uri": "https://gitlab.com/oauth/discovery/keys",
          "scopes_supported": ["api", "read_api", "read_user", "read_repository", "write_repository", "sudo",
            "openid", "profile", "email"],
          "response_types_supported": ["code"],
          "response_modes_supported": ["query", "fragment", "form_post"],
          "grant_types_supported": ["authorization_code", "password", "client_credentials", "device_code",
            "refresh_token"],
          "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
          "subject_types_supported": ["public"],
          "id_token_signing_alg_values_supported": ["RS256"],
          "claim_types_supported": ["normal"],
          "claims_supported": ["iss", "sub", "aud", "exp", "iat", "sub_legacy", "name", "nickname",
            "preferred_username", "email", "email_verified", "website", "profile", "picture", "groups",
            "groups_direct", "https://gitlab.org/claims/groups/owner"],
          "code_challenge_methods_supported": ["plain", "S256"]
        }
        """

    /// `document` with member `name` replaced by `value` (JSON text), or removed when `value` is nil.
    static func google(replacing name: String, with value: String?) -> String {
        let lines = google.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        for line in lines {
            if line.drop(while: { $0 == " " }).hasPrefix("\"\(name)\":") {
                if let value { out.append("  \"\(name)\": \(value),") }
            } else {
                out.append(line)
            }
        }
        return out.joined(separator: "\n")
    }
}
