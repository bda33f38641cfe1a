public import StrictJSON

extension VendorTemplate {
    /// Checks `body` against the declared parameters, substitutes, and signs with the active key.
    ///
    /// - Parameters:
    ///   - body: The request's JSON object; each member must be a declared parameter (`null` counts as absent).
    ///   - caller: Who asks, from the verified access token and the session.
    ///   - now: Unix seconds; `{{now}}`, and `{{exp}}` = `now + ttlSeconds`.
    /// - Returns: The token, its lifetime and the `kid` that signed it.
    /// - Throws: `VendorRequestError.undeclaredParameter`, `.missingParameter`, `.invalidParameter`,
    ///   `.notPermitted` (nothing is signed), `.unavailable` when configured without keys.
    public func issue(body: JSONObject, caller: VendorCaller, now: Int64) throws(VendorRequestError) -> VendedJWT {
        throw .unavailable
    }
}
