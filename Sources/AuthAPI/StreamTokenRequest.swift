/// Optional body of `POST /stream-token`: `{"customerIds": {"registered": "..."}}`.
///
/// When `customerIds` is `nil` the member is omitted and the server signs all of the user's customer ids.
public struct StreamTokenRequest: Codable, Sendable, Equatable {
    /// The Bloomreach customer ids to put in the token's `ids` claim; each must belong to the caller.
    public var customerIds: [String: String]?

    /// Creates a stream-token request.
    public init(customerIds: [String: String]? = nil) {
        self.customerIds = customerIds
    }
}
