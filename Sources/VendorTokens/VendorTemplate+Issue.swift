import JWT
public import StrictJSON

extension VendorTemplate {
    /// Checks `body` against the declared parameters, substitutes, and signs with the active key.
    ///
    /// Body members are checked in order (undeclared, then type and rules, then the caller's role), then the
    /// required ones that are absent; a `customerIds` parameter must hold only the caller's own pairs and, when
    /// absent, is all of them. Nothing is signed when any check fails.
    ///
    /// - Parameters:
    ///   - body: The request's JSON object; each member must be a declared parameter; `null` is no parameter's
    ///     value (`POST /stream-token` has always refused `"customerIds": null`): leave an optional one out.
    ///   - caller: Who asks, from the verified access token and the session.
    ///   - now: Unix seconds; `{{now}}`, and `{{exp}}` = `now + ttlSeconds`.
    /// - Returns: The token, its lifetime and the `kid` that signed it.
    /// - Throws: `VendorRequestError.undeclaredParameter`, `.missingParameter`, `.invalidParameter`,
    ///   `.notPermitted`; `.unavailable` when configured without keys, when the random source fails, or when the
    ///   signature cannot be made (an OpenSSL failure).
    public func issue(body: JSONObject, caller: VendorCaller, now: Int64) throws(VendorRequestError) -> VendedJWT {
        guard let signer, let kid = activeKid else { throw .unavailable }
        var values = [ParameterValue?](repeating: nil, count: parameters.count)
        for member in body {
            guard let index = parameters.firstIndex(where: { $0.name == member.name }) else {
                throw .undeclaredParameter(member.name, reason: refusedMembers[member.name])
            }
            guard member.value != .null else {
                throw .invalidParameter(member.name, reason: "null is not a value; leave the member out instead")
            }
            let parameter = parameters[index]
            if case .customerIDs = parameter.kind {
                values[index] = try parameter.customerIDs(member.value, owned: caller.customerIDs)
            } else {
                values[index] = try parameter.checked(member.value, role: caller.role)
            }
        }
        for (index, parameter) in parameters.enumerated() where values[index] == nil {
            if parameter.isRequired { throw .missingParameter(parameter.name) }
            if case .customerIDs = parameter.kind {
                values[index] = try parameter.customerIDs(nil, owned: caller.customerIDs)
            }
        }

        let expiration = now + Int64(ttlSeconds)
        var tokenID = ""
        if usesTokenID {
            switch jtiMode {
            case .random:
                tokenID = makeRandomID()
                guard !tokenID.isEmpty else { throw .unavailable }
            case .keyAndTime:
                tokenID = "\(kid)-\(now)"
            }
        }
        let payload = claims.render(
            ClaimsTemplate.Values(
                caller: caller, now: now, expiration: expiration, tokenID: tokenID, keyID: kid, parameters: values))
        let token: String
        do {
            token = try signer.sign(payload: payload)
        } catch {
            throw .unavailable
        }
        return VendedJWT(token: token, expiresIn: ttlSeconds, expiresAt: expiration, kid: kid)
    }
}
