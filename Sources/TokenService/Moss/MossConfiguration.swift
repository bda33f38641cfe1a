#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where and how the server exchanges its Moss project credentials for project tokens (`moss.*` settings).
///
/// Moss counts as configured when both `moss.projectId` and `moss.projectKey` are set; otherwise
/// `GET /moss-token` answers ``MossError/notConfigured`` (503). ``description``, `debugDescription` and the
/// mirror (`dump`) redact the project key.
public struct MossConfiguration: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// `https://service.usemoss.dev/identity/auth/token`, used when `moss.authURL` is not set.
    public static let defaultAuthURL: URL = {
        guard let url = URL(string: "https://service.usemoss.dev/identity/auth/token") else {
            preconditionFailure("the default Moss auth URL literal does not parse")
        }
        return url
    }()

    /// The upstream timeout used when none is given: 10 seconds, covering connect, request and answer.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The Moss project id (`moss.projectId`), sent as `projectId`.
    public var projectId: String
    /// The long-lived Moss project key (`moss.projectKey`), sent as `projectKey`. Never logged or returned.
    public var projectKey: String
    /// The Moss auth endpoint (`moss.authURL`). Default: ``defaultAuthURL``.
    public var authURL: URL
    /// Overall deadline for one upstream exchange; past it the exchange fails with
    /// ``MossError/upstreamUnavailable``. Default: ``defaultTimeout`` (10 s).
    public var timeout: Duration

    /// Creates a configuration.
    ///
    /// - Precondition: `timeout` is positive.
    public init(
        projectId: String,
        projectKey: String,
        authURL: URL = MossConfiguration.defaultAuthURL,
        timeout: Duration = MossConfiguration.defaultTimeout
    ) {
        precondition(timeout > .zero, "the Moss upstream timeout must be positive")
        self.projectId = projectId
        self.projectKey = projectKey
        self.authURL = authURL
        self.timeout = timeout
    }

    /// `MossConfiguration(projectId: …, projectKey: <redacted>, authURL: …, timeout: …)`.
    public var description: String {
        "MossConfiguration(projectId: \(projectId), projectKey: <redacted>, authURL: \(authURL.absoluteString), "
            + "timeout: \(timeout))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows every field but the project key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "projectId": projectId, "projectKey": "<redacted>", "authURL": authURL.absoluteString,
                "timeout": timeout,
            ],
            displayStyle: .struct
        )
    }
}
