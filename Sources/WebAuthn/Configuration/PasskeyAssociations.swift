/// The association files that let native apps use the RP id's passkeys (issue 36), and the Android origin rule.
public enum PasskeyAssociations {
    /// `/.well-known/apple-app-site-association`: `{"webcredentials":{"apps":[<appIDs>]}}`, compact JSON.
    public static func appleAppSiteAssociation(appIDs: [String]) -> [UInt8] {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// `/.well-known/assetlinks.json`: one statement per app, `[{"relation":
    /// ["delegate_permission/common.get_login_creds"], "target": {"namespace": "android_app", "package_name",
    /// "sha256_cert_fingerprints": ["AB:CD:…"]}}]`, fingerprints as uppercase hex with colons.
    public static func assetLinks(apps: [PasskeyConfiguration.AndroidApp]) -> [UInt8] {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// `android:apk-key-hash:` + base64url (no padding) of a certificate's SHA-256: the origin an Android app's
    /// client data names.
    public static func apkKeyHashOrigin(fingerprint: [UInt8]) -> String {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// A fingerprint as Digital Asset Links writes it: uppercase hex pairs joined by colons.
    public static func fingerprintText(_ fingerprint: [UInt8]) -> String {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
