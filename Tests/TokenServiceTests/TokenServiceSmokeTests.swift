import Testing

@testable import TokenService

@Suite struct TokenServiceSmokeTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
