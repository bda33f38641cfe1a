package import Configuration
import OutboundHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MossConfiguration {
    /// The `moss.*` keys read from `reader` (scoped to `moss`): `projectId`, `projectKey` (secret) and `authURL`;
    /// `nil` when neither the id nor the key is set, so `GET /moss-token` answers 503.
    ///
    /// The loader's providers hold `projectKey` already read from `moss.projectKeyFile` when that was given, and
    /// `authURL` already checked by the outbound URL rule (`OutboundURL`).
    /// - Throws: ``ConfigurationError/invalidValue(key:source:reason:)`` when only one of id and key is set.
    /// Package access on purpose: the optional readers used here fall back to the default on a value of the
    /// wrong type, which is safe only behind tokenvend's loader (`ConfigurationLoader`), whose providers hold
    /// values already checked against the key table (`ConfigurationReaderTests.everyKeyReadWithItsType`).
    package init?(reader: ConfigReader) throws(ConfigurationError) {
        switch (reader.optionalString(forKey: "projectId"), reader.optionalString(forKey: "projectKey", isSecret: true))
        {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw .invalidValue(key: "moss.projectKey", source: "", reason: "required when moss.projectId is set")
        case (nil, _?):
            throw .invalidValue(key: "moss.projectId", source: "", reason: "required when moss.projectKey is set")
        case (let projectId?, let projectKey?):
            let authURL =
                reader.string(forKey: "authURL").flatMap { OutboundURL.accepts($0) ? URL(string: $0) : nil }
                ?? Self.defaultAuthURL
            self.init(projectId: projectId, projectKey: projectKey, authURL: authURL)
        }
    }
}
