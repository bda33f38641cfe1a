/// The `integrity.firebase` section: which Firebase App Check tokens are accepted.
public struct AppCheckSettings: Sendable, Equatable {
    /// The Firebase project number (`projectNumber`): `iss` is `https://firebaseappcheck.googleapis.com/<number>`
    /// and `aud` must contain `projects/<number>`.
    public var projectNumber: String
    /// Accepted Firebase app ids (`appIds`, such as `1:1234567890:ios:abc123`): `sub` must be one of them.
    public var appIDs: [String]
    /// The App Check JWKS (`jwksURL`). Default: `https://firebaseappcheck.googleapis.com/v1/jwks`.
    public var jwksURL: String

    /// Google's App Check JWKS.
    public static let defaultJWKSURL = "https://firebaseappcheck.googleapis.com/v1/jwks"

    /// Creates settings.
    public init(projectNumber: String, appIDs: [String], jwksURL: String = Self.defaultJWKSURL) {
        self.projectNumber = projectNumber
        self.appIDs = appIDs
        self.jwksURL = jwksURL
    }
}
