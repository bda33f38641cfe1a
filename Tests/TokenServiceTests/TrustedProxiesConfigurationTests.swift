import HTTPServer
import Testing

@testable import TokenService

@Suite struct TrustedProxiesConfigurationTests {
    @Test("server.trustedProxies is read from the file and from the environment as a JSON list; default none")
    func readsRanges() throws {
        let fixture = try ConfigurationFixture()
        #expect(try fixture.resolve().server.trustedProxies == [])
        let file = try fixture.write(
            "c.json", #"{"server": {"trustedProxies": ["10.0.0.0/8", "2001:db8::/32", " 192.0.2.7 "]}}"#)
        let fromFile = try fixture.resolve(file: file).server.trustedProxies
        #expect(fromFile.map(\.description) == ["10.0.0.0/8", "2001:db8::/32", "192.0.2.7/32"])
        let fromEnvironment = try fixture.resolve(
            file: file, environment: ["TOKENVEND_SERVER_TRUSTED_PROXIES": #"["172.16.0.0/12","::1"]"#])
        #expect(fromEnvironment.server.trustedProxies.map(\.description) == ["172.16.0.0/12", "::1/128"])
        let unset = try fixture.resolve(file: file, environment: ["TOKENVEND_SERVER_TRUSTED_PROXIES": ""])
        #expect(unset.server.trustedProxies == [])
    }

    @Test(
        "an invalid trustedProxies value stops startup with a message naming the key",
        arguments: [
            (
                "10.0.0.0/8",
                #"server.trustedProxies (TOKENVEND_SERVER_TRUSTED_PROXIES): expected a JSON list such as ["10.0.0.0/8","2001:db8::/32"], got "10.0.0.0/8""#
            ),
            (
                #"["10.0.0.0/8", "10.0.0.0/33"]"#,
                #"server.trustedProxies (TOKENVEND_SERVER_TRUSTED_PROXIES): item 2 is not an IP address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32): "10.0.0.0/33""#
            ),
            (
                #"[8]"#,
                "server.trustedProxies (TOKENVEND_SERVER_TRUSTED_PROXIES): item 1 is not an IP address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32): 8"
            ),
            (
                #"{"a": 1}"#,
                #"server.trustedProxies (TOKENVEND_SERVER_TRUSTED_PROXIES): expected a list of IP addresses or CIDR ranges such as ["10.0.0.0/8"], got an object"#
            ),
        ])
    func refusesInvalid(value: String, message: String) throws {
        let fixture = try ConfigurationFixture()
        #expect(fixture.error(environment: ["TOKENVEND_SERVER_TRUSTED_PROXIES": value])?.description == message)
    }

    @Test("a file value that is not a list is refused naming the key and the file")
    func refusesFileString() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"trustedProxies": "10.0.0.0/8"}}"#)
        #expect(
            fixture.error(file: file)?.description
                == #"server.trustedProxies (\#(file)): expected a list of IP addresses or CIDR ranges such as ["10.0.0.0/8"], got "10.0.0.0/8""#
        )
    }
}
