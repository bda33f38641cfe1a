public import Testing

extension Tag {
    /// End-to-end tests: a real server on a loopback port.
    @Tag public static var integration: Self
}
