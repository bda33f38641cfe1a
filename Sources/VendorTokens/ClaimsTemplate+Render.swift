import StrictJSON

extension ClaimsTemplate {
    /// The values placeholders are replaced with, for one token.
    struct Values {
        let caller: VendorCaller
        let now: Int64
        let expiration: Int64
        /// `{{jti}}`; empty when the template does not use it.
        let tokenID: String
        let keyID: String
        /// By parameter index; `nil` when absent.
        let parameters: [ParameterValue?]
    }

    /// The claims as compact JSON.
    func render(_ values: Values) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        output.append(UInt8(ascii: "{"))
        Self.appendMembers(members, to: &output, values)
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Appends the members that have a value, comma-separated; returns how many were written.
    @discardableResult
    private static func appendMembers(_ members: [Member], to output: inout [UInt8], _ values: Values) -> Int {
        var written = 0
        for member in members {
            let mark = output.count
            if written > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: member.prefix)
            if append(member.value, to: &output, values) {
                written += 1
            } else {
                output.removeSubrange(mark...)
            }
        }
        return written
    }

    /// Appends a value; returns false (having appended nothing) when it is absent.
    private static func append(_ node: Node, to output: inout [UInt8], _ values: Values) -> Bool {
        switch node {
        case .literal(let bytes):
            output.append(contentsOf: bytes)
            return true
        case .placeholder(let placeholder):
            return append(placeholder, to: &output, values)
        case .object(let members):
            let mark = output.count
            output.append(UInt8(ascii: "{"))
            guard appendMembers(members, to: &output, values) > 0 else {
                output.removeSubrange(mark...)
                return false
            }
            output.append(UInt8(ascii: "}"))
            return true
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var written = 0
            for element in elements {
                let mark = output.count
                if written > 0 { output.append(UInt8(ascii: ",")) }
                if append(element, to: &output, values) {
                    written += 1
                } else {
                    output.removeSubrange(mark...)
                }
            }
            output.append(UInt8(ascii: "]"))
            return true
        }
    }

    private static func append(_ placeholder: Placeholder, to output: inout [UInt8], _ values: Values) -> Bool {
        switch placeholder {
        case .userID: JSONString.append(values.caller.userID, to: &output)
        case .userEmail:
            guard let email = values.caller.email else { return false }
            JSONString.append(email, to: &output)
        case .userRole: JSONString.append(values.caller.role, to: &output)
        case .userTenantID:
            guard let tenant = values.caller.tenantID else { return false }
            JSONString.append(tenant, to: &output)
        case .userCustomerIDs:
            appendObject(values.caller.customerIDs.sorted { $0.key < $1.key }, to: &output)
        case .sessionID: JSONString.append(values.caller.sessionID, to: &output)
        case .now: JSONNumber.append(values.now, to: &output)
        case .expiration: JSONNumber.append(values.expiration, to: &output)
        case .tokenID: JSONString.append(values.tokenID, to: &output)
        case .keyID: JSONString.append(values.keyID, to: &output)
        case .parameter(let index):
            switch values.parameters[index] {
            case nil: return false
            case .string(let text): JSONString.append(text, to: &output)
            case .integer(let number): JSONNumber.append(number, to: &output)
            case .boolean(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
            case .customerIDs(let pairs): appendObject(pairs, to: &output)
            }
        }
        return true
    }

    private static func appendObject(_ pairs: [(key: String, value: String)], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONString.append(pair.key, to: &output)
            output.append(UInt8(ascii: ":"))
            JSONString.append(pair.value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
