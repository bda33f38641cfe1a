import Cryptography
import StrictJSON

/// The association files that let native apps use the RP id's passkeys (issue 36), and the Android origin rule.
public enum PasskeyAssociations {
    /// The one relation Credential Manager looks for.
    static let relation = "delegate_permission/common.get_login_creds"

    /// `/.well-known/apple-app-site-association`: `{"webcredentials":{"apps":[<appIDs>]}}`, compact JSON.
    public static func appleAppSiteAssociation(appIDs: [String]) -> [UInt8] {
        let apps = JSONValue.array(appIDs.map(JSONValue.string))
        return JSONValue.object(["webcredentials": .object(["apps": apps])]).serialized()
    }

    /// `/.well-known/assetlinks.json`: one statement per app, `[{"relation":
    /// ["delegate_permission/common.get_login_creds"], "target": {"namespace": "android_app", "package_name",
    /// "sha256_cert_fingerprints": ["AB:CD:…"]}}]`, fingerprints as uppercase hex with colons.
    public static func assetLinks(apps: [PasskeyConfiguration.AndroidApp]) -> [UInt8] {
        let statements = apps.map { app -> JSONValue in
            let target: JSONObject = [
                "namespace": "android_app", "package_name": .string(app.packageName),
                "sha256_cert_fingerprints": .array(app.certificateFingerprints.map { .string(fingerprintText($0)) }),
            ]
            return .object(["relation": [.string(relation)], "target": .object(target)])
        }
        return JSONValue.array(statements).serialized()
    }

    /// `android:apk-key-hash:` + base64url (no padding) of a certificate's SHA-256: the origin an Android app's
    /// client data names.
    public static func apkKeyHashOrigin(fingerprint: [UInt8]) -> String {
        "android:apk-key-hash:" + Base64URL.encode(fingerprint)
    }

    /// A fingerprint as Digital Asset Links writes it: uppercase hex pairs joined by colons.
    public static func fingerprintText(_ fingerprint: [UInt8]) -> String {
        Hex.encode(fingerprint).uppercased().chunkedPairs().joined(separator: ":")
    }
}

extension String {
    /// The string cut into two-character pieces (the last may be shorter).
    fileprivate func chunkedPairs() -> [Substring] {
        var pieces: [Substring] = []
        var start = startIndex
        while start < endIndex {
            let end = index(start, offsetBy: 2, limitedBy: endIndex) ?? endIndex
            pieces.append(self[start..<end])
            start = end
        }
        return pieces
    }
}
