import Testing
import VendorTokens

@Suite struct VendorNameTests {
    @Test(
        "accepts lowercase names of letters, digits, _ and - up to 32 bytes",
        arguments: ["a", "stream-chat", "x_1", "0abc", String(repeating: "a", count: 32)])
    func accepts(name: String) {
        #expect(VendorConfiguration.isVendorName(name))
    }

    @Test(
        "refuses empty, uppercase, leading punctuation, dots, slashes and names over 32 bytes",
        arguments: ["", "Chat", "-a", "_a", "a.b", "a/b", "a b", "é", String(repeating: "a", count: 33)])
    func refuses(name: String) {
        #expect(!VendorConfiguration.isVendorName(name))
    }
}
