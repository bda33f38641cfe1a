import Testing

@testable import TokenClient

@Suite struct TokenClientSmokeTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
