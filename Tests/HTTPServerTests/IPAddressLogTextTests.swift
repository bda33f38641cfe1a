import Testing

@testable import HTTPServer

@Suite struct IPAddressLogTextTests {
    @Test(
        "an address writes the same log text as its description",
        arguments: [
            "0.0.0.0", "1.2.3.4", "9.10.99.100", "192.0.2.7", "255.255.255.255", "10.0.0.9", "::1", "2001:db8::1",
            "fe80::1:2:3:4", "::",
        ])
    func logTextIsDescription(text: String) throws {
        let address = try #require(IPAddress(text))
        var bytes: [UInt8] = []
        address.appendLogText(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == address.description)
    }
}
