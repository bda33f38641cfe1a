import StrictJSON

extension VendorParameter {
    /// Checks a body value (not `null`) of a string, integer or boolean parameter, including the caller's role.
    ///
    /// - Throws: `.invalidParameter` for a wrong type, length, pattern, enum or range; `.notPermitted` when
    ///   `allowedByRole` does not let `role` have the value.
    func checked(_ value: JSONValue, role: String) throws(VendorRequestError) -> ParameterValue {
        switch kind {
        case .string(let rules):
            guard case .string(let text) = value else { throw invalid("expected a string") }
            guard text.utf8.count <= rules.maxLength else {
                throw invalid("longer than \(rules.maxLength) bytes")
            }
            if let pattern = rules.pattern, !pattern.matches(text) {
                throw invalid("does not match the pattern \(pattern.source)")
            }
            if let allowed = rules.allowedValues, !allowed.contains(text) {
                throw invalid("must be one of " + allowed.joined(separator: ", "))
            }
            if let byRole = rules.allowedByRole {
                guard let rolePattern = byRole[role], rolePattern.matches(text) else { throw .notPermitted(name) }
            }
            return .string(text)
        case .integer(let minimum, let maximum):
            guard case .integer(let number) = value else { throw invalid("expected an integer") }
            if let minimum, number < minimum { throw invalid("below the minimum \(minimum)") }
            if let maximum, number > maximum { throw invalid("above the maximum \(maximum)") }
            return .integer(number)
        case .boolean:
            guard case .bool(let flag) = value else { throw invalid("expected true or false") }
            return .boolean(flag)
        case .customerIDs:
            // Checked against the caller's ids by `customerIDs(_:owned:)`.
            throw invalid("expected an object of customer ids")
        }
    }

    /// The customer ids to sign: `requested` (every pair the caller's own) or, when absent, all of `owned`.
    ///
    /// - Throws: `.invalidParameter` when `requested` is not an object of strings, `.notPermitted` for a pair that
    ///   is not the caller's or an empty result (a token for nobody is never signed).
    func customerIDs(
        _ requested: JSONValue?, owned: [String: String]
    ) throws(VendorRequestError) -> ParameterValue {
        var pairs: [(key: String, value: String)] = []
        if let requested {
            guard case .object(let object) = requested else {
                throw invalid("expected an object of customer id strings")
            }
            pairs.reserveCapacity(object.count)
            for member in object {
                guard case .string(let id) = member.value else {
                    throw invalid("expected an object of customer id strings")
                }
                pairs.append((member.name, id))
            }
            guard pairs.allSatisfy({ owned[$0.key] == $0.value }) else { throw .notPermitted(name) }
        } else {
            pairs = owned.map { ($0.key, $0.value) }
        }
        guard !pairs.isEmpty else { throw .notPermitted(name) }
        pairs.sort { $0.key < $1.key }
        return .customerIDs(pairs)
    }

    private func invalid(_ reason: String) -> VendorRequestError {
        .invalidParameter(name, reason: reason)
    }
}
