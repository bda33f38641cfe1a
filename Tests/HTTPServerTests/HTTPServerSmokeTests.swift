import Testing

@testable import HTTPServer

@Suite struct HTTPServerSmokeTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
