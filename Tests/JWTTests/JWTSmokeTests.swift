import Testing

@testable import JWT

@Suite struct JWTSmokeTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
