/// The `moss` preset: the upstream project-token cache (TokenService runs it).
///
/// `description` never shows `projectKey`.
public struct MossVendorSettings: Sendable, Equatable {
    /// The Moss project id.
    public var projectId: String
    /// The project key sent to Moss's auth endpoint; a secret, never printed.
    public var projectKey: String
    /// The Moss auth endpoint; `nil` means the default Moss URL (TokenService knows it).
    public var authURL: String?

    /// Creates settings.
    public init(projectId: String, projectKey: String, authURL: String? = nil) {
        self.projectId = projectId
        self.projectKey = projectKey
        self.authURL = authURL
    }
}

extension MossVendorSettings: CustomStringConvertible, CustomDebugStringConvertible {
    /// `MossVendorSettings(projectId: …, authURL: …)`; the project key is never shown.
    public var description: String {
        "MossVendorSettings(projectId: \(projectId), authURL: \(authURL ?? "default"))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }
}
