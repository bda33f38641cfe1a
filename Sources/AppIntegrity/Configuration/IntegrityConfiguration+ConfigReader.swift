package import Configuration
import Cryptography

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension IntegrityConfiguration {
    /// Reads the `integrity` section from `reader` (scoped to `integrity`); errors name the full key
    /// (`integrity.android.certificateDigests[1]`).
    ///
    /// Keys, relative to the reader: `tokenLifetimeSeconds`, `maxPendingChallenges`, `routes.<route>`,
    /// `apple.appIds`, `apple.allowDevelopment`, `apple.rootCertificateFile` (the path only: the caller reads the
    /// file into ``Apple/rootCertificatePEM``), `android.decryptionKey` and `android.verificationKey` (resolved from
    /// their `…File` keys by the loader: one base64 line each, as the Play Console shows them),
    /// `android.packageNames`, `android.appRecognitionVerdicts`, `android.certificateDigests`,
    /// `android.requiredDeviceVerdicts`, `firebase.projectNumber`, `firebase.appIds`, `firebase.jwksURL`,
    /// `debugTokens`, `allowDebugTokens`.
    ///
    /// Package access on purpose: the optional readers fall back to the default on a value of the wrong type,
    /// which is safe only behind tokenvend's loader, whose providers hold values already checked against its key
    /// table.
    /// - Throws: ``IntegrityConfigurationError`` for a malformed app id, key, digest, project number or debug
    ///   token hash, and for half-configured platforms (Android keys without package names, or the reverse;
    ///   App Check app ids without a project number, or the reverse).
    package init(reader: ConfigReader) throws(IntegrityConfigurationError) {
        self.init()
        tokenLifetimeSeconds = reader.int(forKey: "tokenLifetimeSeconds") ?? tokenLifetimeSeconds
        maxPendingChallenges = reader.int(forKey: "maxPendingChallenges") ?? maxPendingChallenges
        for route in IntegrityRoute.allCases {
            if let text = reader.string(forKey: ConfigKey("routes.\(route.rawValue)")),
                let mode = IntegrityMode(rawValue: text)
            {
                routes[route] = mode
            }
        }
        apple = try Self.apple(reader)
        android = try Self.android(reader)
        firebase = try Self.firebase(reader)
        allowDebugTokens = reader.bool(forKey: "allowDebugTokens") ?? false
        for (index, text) in (reader.stringArray(forKey: "debugTokens") ?? []).enumerated() {
            guard text.count == 64, let hash = Hex.decode(text), hash.count == 32 else {
                throw IntegrityConfigurationError(
                    path: "integrity.debugTokens[\(index)]",
                    reason: "expected the SHA-256 of a secret as 64 hex digits (`printf %s SECRET | sha256sum`)")
            }
            debugTokenHashes.append(hash)
        }
    }

    private static func apple(_ reader: ConfigReader) throws(IntegrityConfigurationError) -> Apple? {
        let appIDs = reader.stringArray(forKey: "apple.appIds") ?? []
        let root = reader.string(forKey: "apple.rootCertificateFile").flatMap { $0.isEmpty ? nil : $0 }
        let development = reader.bool(forKey: "apple.allowDevelopment") ?? false
        guard !appIDs.isEmpty else {
            if root != nil || development {
                throw IntegrityConfigurationError(
                    path: "integrity.apple.appIds",
                    reason: "required with integrity.apple.* (each app as TEAMID.bundle.id)")
            }
            return nil
        }
        for (index, appID) in appIDs.enumerated() where !AppleAppID.isValid(appID) {
            throw IntegrityConfigurationError(
                path: "integrity.apple.appIds[\(index)]",
                reason: "expected TEAMID.bundle.id (a 10-character team id, a dot, the bundle id)")
        }
        return Apple(appIDs: appIDs, allowDevelopment: development, rootCertificateFile: root)
    }

    private static func android(_ reader: ConfigReader) throws(IntegrityConfigurationError) -> PlayIntegritySettings? {
        let decryption = reader.string(forKey: "android.decryptionKey", isSecret: true).flatMap {
            $0.isEmpty ? nil : $0
        }
        let verification = reader.string(forKey: "android.verificationKey", isSecret: true).flatMap {
            $0.isEmpty ? nil : $0
        }
        let packages = reader.stringArray(forKey: "android.packageNames") ?? []
        guard decryption != nil || verification != nil || !packages.isEmpty else { return nil }
        func required<T>(_ value: T?, _ key: String, _ reason: String) throws(IntegrityConfigurationError) -> T {
            guard let value else { throw IntegrityConfigurationError(path: "integrity.android.\(key)", reason: reason) }
            return value
        }
        let decryptionText = try required(
            decryption, "decryptionKeyFile", "required with integrity.android.* (the Play Console's decryption key)")
        let verificationText = try required(
            verification, "verificationKeyFile",
            "required with integrity.android.* (the Play Console's verification key)")
        guard !packages.isEmpty else {
            throw IntegrityConfigurationError(
                path: "integrity.android.packageNames", reason: "required with integrity.android.* (at least one)")
        }
        guard let decryptionKey = StandardBase64.decodeLenient(decryptionText), decryptionKey.count == 32 else {
            throw IntegrityConfigurationError(
                path: "integrity.android.decryptionKeyFile",
                reason: "expected one line of base64 decoding to 32 bytes, as the Play Console shows it")
        }
        guard let verificationKey = StandardBase64.decodeLenient(verificationText), !verificationKey.isEmpty else {
            throw IntegrityConfigurationError(
                path: "integrity.android.verificationKeyFile",
                reason: "expected one line of base64 (a DER public key), as the Play Console shows it")
        }
        var digests: [[UInt8]] = []
        for (index, text) in (reader.stringArray(forKey: "android.certificateDigests") ?? []).enumerated() {
            guard let digest = CertificateDigest.parse(text) else {
                throw IntegrityConfigurationError(
                    path: "integrity.android.certificateDigests[\(index)]",
                    reason: "expected a SHA-256 as the Play Console shows it (32 hex pairs with colons) or as "
                        + "verdicts carry it (base64url of 32 bytes)")
            }
            digests.append(digest)
        }
        return PlayIntegritySettings(
            decryptionKey: decryptionKey, verificationKey: verificationKey, packageNames: packages,
            appRecognitionVerdicts: nonEmpty(reader.stringArray(forKey: "android.appRecognitionVerdicts"))
                ?? ["PLAY_RECOGNIZED"],
            certificateDigests: digests,
            requiredDeviceVerdicts: reader.stringArray(forKey: "android.requiredDeviceVerdicts")
                ?? ["MEETS_DEVICE_INTEGRITY"])
    }

    private static func firebase(_ reader: ConfigReader) throws(IntegrityConfigurationError) -> AppCheckSettings? {
        let number = reader.string(forKey: "firebase.projectNumber").flatMap { $0.isEmpty ? nil : $0 }
        let appIDs = reader.stringArray(forKey: "firebase.appIds") ?? []
        let url = reader.string(forKey: "firebase.jwksURL").flatMap { $0.isEmpty ? nil : $0 }
        guard number != nil || !appIDs.isEmpty else {
            if url != nil {
                throw IntegrityConfigurationError(
                    path: "integrity.firebase.projectNumber", reason: "required with integrity.firebase.jwksURL")
            }
            return nil
        }
        guard let number, !number.isEmpty, number.count <= 32, number.allSatisfy({ ("0"..."9").contains($0) })
        else {
            throw IntegrityConfigurationError(
                path: "integrity.firebase.projectNumber",
                reason: "expected the Firebase project number (digits), required with integrity.firebase.appIds")
        }
        guard !appIDs.isEmpty else {
            throw IntegrityConfigurationError(
                path: "integrity.firebase.appIds", reason: "required with integrity.firebase.projectNumber")
        }
        return AppCheckSettings(projectNumber: number, appIDs: appIDs, jwksURL: url ?? AppCheckSettings.defaultJWKSURL)
    }

    private static func nonEmpty(_ list: [String]?) -> [String]? {
        guard let list, !list.isEmpty else { return nil }
        return list
    }
}

/// `TEAMID.bundle.id`: ten upper-case letters or digits, a dot, then a bundle id (letters, digits, `.`, `-`).
enum AppleAppID {
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10,
            parts[0].allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }),
            !parts[1].isEmpty, parts[1].count <= 255, !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
        else { return false }
        return parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}

/// A signing certificate's SHA-256 as the Play Console shows it (`AB:CD:…`, 32 hex pairs) or as verdicts carry
/// it (base64url of 32 bytes, with or without padding).
package enum CertificateDigest {
    /// The 32 bytes, or nil.
    package static func parse(_ text: String) -> [UInt8]? {
        if text.contains(":") {
            let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
            guard pairs.count == 32, pairs.allSatisfy({ $0.count == 2 }) else { return nil }
            guard let bytes = Hex.decode(pairs.joined()), bytes.count == 32 else { return nil }
            return bytes
        }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        guard let bytes = Base64URL.decode(String(trimmed)), bytes.count == 32 else { return nil }
        return bytes
    }
}
