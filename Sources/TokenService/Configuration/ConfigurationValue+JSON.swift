import StrictJSON

extension ConfigurationValue {
    /// The same value as a StrictJSON value (object members sorted by name), e.g. to hand an inline private JWK
    /// to the JWT library.
    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .integer(let value): .integer(Int64(value))
        case .number(let value): .double(value)
        case .string(let value): .string(value)
        case .array(let values): .array(values.map(\.jsonValue))
        case .object(let members):
            .object(
                JSONObject(
                    members.sorted { $0.key < $1.key }.map {
                        JSONObject.Member(name: $0.key, value: $0.value.jsonValue)
                    }))
        }
    }
}
