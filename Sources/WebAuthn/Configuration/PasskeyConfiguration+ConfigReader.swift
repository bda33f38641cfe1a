package import Configuration
package import StrictJSON

extension PasskeyConfiguration {
    /// Reads the `passkeys` section from `reader` (scoped to `passkeys`) and the already parsed `androidApps`.
    ///
    /// Keys, relative to the reader: `rpId`, `rpName`, `origins`, `userVerification`, `timeoutSeconds`,
    /// `appleAppIds`, `maxPendingChallenges`; `androidApps` is a structured section (``androidApps(section:)``).
    ///
    /// Package access on purpose: the optional readers fall back to the default on a value of the wrong type, which
    /// is safe only behind tokenvend's loader, whose providers hold values already checked against its key table.
    /// - Throws: ``PasskeyConfigurationError`` naming the key: an RP id that is not a lowercase domain (or
    ///   `localhost`), an origin that is not `https://` on the RP id or a subdomain (or `http://localhost[:port]`
    ///   for the RP id `localhost`) nor `android:apk-key-hash:` with 43 base64url characters, an app id that is not
    ///   `TEAMID.bundle.id`, and any `passkeys.*` value set while `rpId` is not. Also `userVerification` other
    ///   than `required`, `preferred` or `discouraged`, `timeoutSeconds` outside 30–3600, `maxPendingChallenges`
    ///   outside 1–10,000,000, an empty `rpName`, and a repeated origin or app id.
    package init(reader: ConfigReader, androidApps: [AndroidApp]) throws(PasskeyConfigurationError) {
        self.init()
        let rpID = reader.string(forKey: "rpId").flatMap { $0.isEmpty ? nil : $0 }
        let rpName = reader.string(forKey: "rpName")
        let origins = reader.stringArray(forKey: "origins") ?? []
        let userVerification = reader.string(forKey: "userVerification")
        let timeoutSeconds = reader.int(forKey: "timeoutSeconds")
        let appleAppIDs = reader.stringArray(forKey: "appleAppIds") ?? []
        let maxPendingChallenges = reader.int(forKey: "maxPendingChallenges")
        guard let rpID else {
            let set: [(String, Bool)] = [
                ("rpName", rpName != nil), ("origins", !origins.isEmpty), ("userVerification", userVerification != nil),
                ("timeoutSeconds", timeoutSeconds != nil), ("appleAppIds", !appleAppIDs.isEmpty),
                ("androidApps", !androidApps.isEmpty), ("maxPendingChallenges", maxPendingChallenges != nil),
            ]
            if let key = set.first(where: \.1)?.0 {
                throw PasskeyConfigurationError(path: "passkeys.\(key)", reason: "set while passkeys.rpId is not")
            }
            return
        }
        guard Self.isRPID(rpID) else {
            throw PasskeyConfigurationError(
                path: "passkeys.rpId", reason: "expected a lowercase domain such as example.com (or localhost)")
        }
        self.rpID = rpID
        if let rpName {
            guard rpName.contains(where: { !$0.isWhitespace }) else {
                throw PasskeyConfigurationError(path: "passkeys.rpName", reason: "expected a non-empty name")
            }
            self.rpName = rpName
        }
        for (index, origin) in origins.enumerated() {
            let path = "passkeys.origins[\(index)]"
            guard Self.isOrigin(origin, rpID: rpID) else {
                throw PasskeyConfigurationError(
                    path: path,
                    reason: "expected https:// on \(rpID) or a subdomain (http://localhost[:port] for the RP id "
                        + "localhost), or android:apk-key-hash: and 43 base64url characters")
            }
            guard !self.origins.contains(origin) else {
                throw PasskeyConfigurationError(path: path, reason: "repeats an earlier origin")
            }
            self.origins.append(origin)
        }
        if let userVerification {
            guard let value = UserVerification(rawValue: userVerification) else {
                throw PasskeyConfigurationError(
                    path: "passkeys.userVerification", reason: "expected required, preferred or discouraged")
            }
            self.userVerification = value
        }
        if let timeoutSeconds {
            guard (30...3600).contains(timeoutSeconds) else {
                throw PasskeyConfigurationError(path: "passkeys.timeoutSeconds", reason: "expected 30 to 3600")
            }
            self.timeoutSeconds = timeoutSeconds
        }
        if let maxPendingChallenges {
            guard (1...10_000_000).contains(maxPendingChallenges) else {
                throw PasskeyConfigurationError(
                    path: "passkeys.maxPendingChallenges", reason: "expected 1 to 10,000,000")
            }
            self.maxPendingChallenges = maxPendingChallenges
        }
        for (index, appID) in appleAppIDs.enumerated() {
            let path = "passkeys.appleAppIds[\(index)]"
            guard AppleAppID.isValid(appID) else {
                throw PasskeyConfigurationError(
                    path: path, reason: "expected TEAMID.bundle.id (a 10-character team id, a dot, the bundle id)")
            }
            guard !appleAppIDs[..<index].contains(appID) else {
                throw PasskeyConfigurationError(path: path, reason: "repeats an earlier app id")
            }
        }
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
    }

    /// Parses `passkeys.androidApps`: an array of `{"package", "sha256CertFingerprints": ["AB:CD:…"]}` (no other
    /// member; at least one fingerprint each; 64 hex digits with or without colons), `null` for none.
    ///
    /// A package repeated, or a fingerprint repeated within one app, is refused too.
    /// - Throws: ``PasskeyConfigurationError`` with the path relative to the section (`[0].package`).
    package static func androidApps(section: JSONValue) throws(PasskeyConfigurationError) -> [AndroidApp] {
        if section == .null { return [] }
        guard case .array(let items) = section else {
            throw PasskeyConfigurationError(path: "", reason: "expected an array of apps, got \(section.summary)")
        }
        var apps: [AndroidApp] = []
        for (index, item) in items.enumerated() {
            let app = try androidApp(item, path: "[\(index)]")
            guard !apps.contains(where: { $0.packageName == app.packageName }) else {
                throw PasskeyConfigurationError(path: "[\(index)].package", reason: "repeats an earlier app")
            }
            apps.append(app)
        }
        return apps
    }

    /// One `{"package", "sha256CertFingerprints"}` at `path`.
    private static func androidApp(_ item: JSONValue, path: String) throws(PasskeyConfigurationError) -> AndroidApp {
        guard case .object(let object) = item else {
            throw PasskeyConfigurationError(
                path: path, reason: "expected {\"package\", \"sha256CertFingerprints\"}, got \(item.summary)")
        }
        for member in object where member.name != "package" && member.name != "sha256CertFingerprints" {
            throw PasskeyConfigurationError(path: "\(path).\(member.name)", reason: "unknown member")
        }
        guard case .string(let package) = object["package"], isAndroidPackage(package) else {
            throw PasskeyConfigurationError(
                path: "\(path).package", reason: "expected an Android application id such as com.example.app")
        }
        let fingerprintsPath = "\(path).sha256CertFingerprints"
        guard case .array(let texts) = object["sha256CertFingerprints"], !texts.isEmpty else {
            throw PasskeyConfigurationError(path: fingerprintsPath, reason: "expected at least one fingerprint")
        }
        var fingerprints: [[UInt8]] = []
        for (index, text) in texts.enumerated() {
            guard case .string(let string) = text, let fingerprint = certificateFingerprint(string) else {
                throw PasskeyConfigurationError(
                    path: "\(fingerprintsPath)[\(index)]",
                    reason: "expected a SHA-256 as 64 hex digits, with or without colons (AB:CD:…)")
            }
            guard !fingerprints.contains(fingerprint) else {
                throw PasskeyConfigurationError(
                    path: "\(fingerprintsPath)[\(index)]", reason: "repeats an earlier fingerprint")
            }
            fingerprints.append(fingerprint)
        }
        return AndroidApp(packageName: package, certificateFingerprints: fingerprints)
    }
}
