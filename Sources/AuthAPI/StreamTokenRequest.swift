/// Optional body of `POST /stream-token`: `{"customerIds": {"registered": "..."}}`.
///
/// When `customerIDs` is `nil` the member is omitted and the server signs all of the user's customer ids.
public struct StreamTokenRequest: Codable, Sendable, Equatable {
    /// The Bloomreach customer ids to put in the token's `ids` claim; each must belong to the caller.
    /// `customerIds` on the wire.
    public var customerIDs: [String: String]?

    /// Creates a stream-token request.
    public init(customerIDs: [String: String]? = nil) {
        self.customerIDs = customerIDs
    }

    /// The Swift name before issue 31 (acronyms are whole words now); the wire name stays `customerIds`.
    @available(*, deprecated, renamed: "customerIDs")
    public var customerIds: [String: String]? {
        get { customerIDs }
        set { customerIDs = newValue }
    }

    /// The initializer before issue 31.
    @available(*, deprecated, renamed: "init(customerIDs:)")
    public init(customerIds: [String: String]?) {
        self.init(customerIDs: customerIds)
    }

    private enum CodingKeys: String, CodingKey {
        case customerIDs = "customerIds"
    }
}
