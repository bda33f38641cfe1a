/// Why a DPoP proof was refused: a closed set, so that it can be a metric label
/// (`tokenvend_dpop_proofs_total{reason}`); never sent to the client (one body for every reason).
public enum DPoPProofFailure: String, Error, Sendable, CaseIterable {
    /// Over `DPoPProofVerifier.maximumByteCount` (8 KiB).
    case tooLarge = "too_large"
    /// Not three base64url segments of JSON objects, or a member of the wrong JSON type.
    case malformed
    /// `typ` is not `dpop+jwt`.
    case type
    /// `alg` missing, `none`, symmetric, or not among the allowed algorithms.
    case algorithm
    /// `jwk` missing, not a key of the `alg`, or not a valid public key (off the curve, wrong length).
    case key
    /// `jwk` has a private member (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`).
    case privateKey = "private_key"
    /// The signature does not verify with the `jwk`.
    case signature
    /// `jti`, `htm`, `htu` or `iat` missing or not of its type.
    case claims
    /// `htm` is not the request's method.
    case method
    /// `htu` is not the request's URI (after RFC 3986 normalisation, without query and fragment).
    case uri
    /// `iat` older than the allowed age.
    case stale
    /// `iat` more than the allowed skew ahead.
    case future
    /// `ath` missing while an access token is presented, present without one, or not that token's hash.
    case accessTokenHash = "ath"
}
