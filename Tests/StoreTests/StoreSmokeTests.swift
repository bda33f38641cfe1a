import Testing

@testable import Store

@Suite struct StoreSmokeTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
