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
    ///   `TEAMID.bundle.id`, and any `passkeys.*` value set while `rpId` is not.
    package init(reader: ConfigReader, androidApps: [AndroidApp]) throws(PasskeyConfigurationError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// Parses `passkeys.androidApps`: an array of `{"package", "sha256CertFingerprints": ["AB:CD:…"]}` (no other
    /// member; at least one fingerprint each; 64 hex digits with or without colons), `null` for none.
    /// - Throws: ``PasskeyConfigurationError`` with the path relative to the section (`[0].package`).
    package static func androidApps(section: JSONValue) throws(PasskeyConfigurationError) -> [AndroidApp] {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
