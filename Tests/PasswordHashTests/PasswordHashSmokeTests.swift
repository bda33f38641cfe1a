import Testing

@testable import PasswordHash

@Suite struct PasswordHashSmokeTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
