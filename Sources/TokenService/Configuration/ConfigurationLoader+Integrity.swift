import AppIntegrity
import VendorTokens

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationLoader {
    /// Checks the `integrity` section once every layer is applied: reads `integrity.apple.rootCertificateFile`,
    /// builds the verifiers once (so a root, key or app id they refuse stops startup naming its key), and refuses
    /// a route at `require` that nothing could ever pass (no platform, no App Check, no debug tokens allowed).
    /// - Throws: ``ConfigurationError/invalidValue`` naming the key.
    static func validateIntegrity(_ configuration: inout TokenServiceConfiguration) throws(ConfigurationError) {
        var integrity = configuration.integrity
        if var apple = integrity.apple, let path = apple.rootCertificateFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .invalidValue(
                    key: "integrity.apple.rootCertificateFile", source: "",
                    reason:
                        "cannot read \"\(path)\": \(FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file")"
                )
            }
            apple.rootCertificatePEM = String(decoding: data, as: UTF8.self)
            integrity.apple = apple
        }
        do throws(IntegrityConfigurationError) {
            if let apple = integrity.apple {
                _ = try AppAttestVerifier(
                    appIDs: apple.appIDs, allowDevelopment: apple.allowDevelopment,
                    rootCertificatePEM: apple.rootCertificatePEM)
            }
            if let android = integrity.android { _ = try PlayIntegrityVerifier(settings: android) }
        } catch {
            throw .invalidValue(key: error.path, source: "", reason: error.reason)
        }
        let canPass =
            integrity.apple != nil || integrity.android != nil || integrity.firebase != nil
            || (integrity.allowDebugTokens && !integrity.debugTokenHashes.isEmpty)
        if !canPass {
            let required = IntegrityRoute.allCases.first { integrity.mode(for: $0) == .require }
            let vendor = configuration.vendors.first { $0.access.integrity == IntegrityMode.require.rawValue }
            if let key = required.map({ "integrity.routes.\($0.rawValue)" })
                ?? vendor.map({ "vendors.\($0.name).integrity" })
            {
                throw .invalidValue(
                    key: key, source: "",
                    reason: "require refuses every request while nothing can pass: configure integrity.apple, "
                        + "integrity.android or integrity.firebase (or, for tests, integrity.debugTokens with "
                        + "integrity.allowDebugTokens)")
            }
        }
        if integrity.allowDebugTokens, integrity.debugTokenHashes.isEmpty {
            throw .invalidValue(
                key: "integrity.debugTokens", source: "",
                reason: "required when integrity.allowDebugTokens is true (the SHA-256 hex of each secret)")
        }
        configuration.integrity = integrity
    }
}
