/// Why an app-integrity check failed: the `reason` label of `tokenvend_integrity_checks_total` and the log's
/// `reason`. A fixed set, so the metric's cardinality is bounded; the wire answer never tells them apart (one
/// `401 integrity_invalid` body, or `401 integrity_required` for ``missing``).
public enum IntegrityFailureReason: String, Sendable, Hashable, CaseIterable {
    /// No `X-App-Integrity` and no `X-Firebase-AppCheck` on a route that checks them.
    case missing
    /// A header or body member that does not parse (base64, CBOR, JWS/JWE structure, JSON), or is over its size cap.
    case malformed
    /// A signature (JWS, assertion, certificate) that does not verify.
    case signature
    /// A token, verdict or certificate outside its validity (`exp`, `timestampMillis`, `notAfter`).
    case expired
    /// A JWT whose `typ` or `alg` is not the one expected (an access token sent as an integrity token).
    case tokenType = "token_type"
    /// `debug:<secret>` while `integrity.allowDebugTokens` is false.
    case debugDisabled = "debug_disabled"
    /// `debug:<secret>` whose SHA-256 is not in `integrity.debugTokens`.
    case debugUnknown = "debug_unknown"
    /// A challenge never issued, used already, or expired.
    case challenge
    /// An App Attest attestation whose `fmt` is not `apple-appattest`, or a statement without `x5c`/`receipt`.
    case format
    /// An `x5c` chain that does not verify to the pinned root, or is not valid now.
    case certificate
    /// The leaf's nonce extension differs from `SHA256(authData ‖ clientDataHash)`.
    case nonce
    /// `keyId` differs from the SHA-256 of the leaf's public point or from the credential id in `authData`.
    case keyID = "key_id"
    /// The RP id hash matches none of `integrity.apple.appIds` (or, for an assertion, not the key's app).
    case appID = "app_id"
    /// An attestation's counter that is not 0, or an assertion's that is not greater than the stored one (a
    /// replayed or reordered assertion).
    case counter
    /// An AAGUID that is neither App Attest's production nor its development value.
    case aaguid
    /// A development AAGUID (`appattestdevelop`) while `integrity.apple.allowDevelopment` is false.
    case development
    /// An assertion for a key id never attested (or deleted).
    case unknownKey = "unknown_key"
    /// An attestation for a key id attested already.
    case keyExists = "key_exists"
    /// A Play Integrity JWE that does not decrypt with the configured key (wrong key, tag mismatch).
    case decryption
    /// A package name (`requestPackageName`, `appIntegrity.packageName`) outside `integrity.android.packageNames`.
    case package
    /// An `appRecognitionVerdict` outside `integrity.android.appRecognitionVerdicts`.
    case appRecognition = "app_recognition"
    /// No `certificateSha256Digest` in `integrity.android.certificateDigests`.
    case certificateDigest = "certificate_digest"
    /// A `deviceRecognitionVerdict` missing one of `integrity.android.requiredDeviceVerdicts`.
    case deviceVerdict = "device_verdict"
    /// A verdict's `timestampMillis` more than 5 minutes old or more than 1 minute ahead.
    case timestamp
    /// A JWT whose `iss` is not the expected one (App Check: `https://firebaseappcheck.googleapis.com/<number>`).
    case issuer
    /// A JWT whose `aud` lacks the expected value, or an App Check `sub` outside `integrity.firebase.appIds`.
    case audience
    /// The App Check keys could not be fetched and none are cached.
    case keysUnavailable = "keys_unavailable"
    /// An integrity token bound to a DPoP key (`cnf.jkt`) without a valid proof by that key in the request.
    case keyMismatch = "key_mismatch"
}
