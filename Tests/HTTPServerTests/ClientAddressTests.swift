import Testing

@testable import HTTPServer

@Suite struct IPAddressTests {
    @Test(
        "parses IPv4 and IPv6 text and prints the canonical form",
        arguments: [
            ("192.0.2.7", "192.0.2.7"), ("0.0.0.0", "0.0.0.0"), ("0.10.100.255", "0.10.100.255"),
            ("255.255.255.255", "255.255.255.255"),
            ("::", "::"), ("::1", "::1"), ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"), ("2001:db8::", "2001:db8::"),
            ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
            (
                "2001:0db8:0000:0001:0001:0001:0001:0001",
                "2001:db8:0:1:1:1:1:1"
            ), ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"), ("::ffff:192.0.2.7", "192.0.2.7"),
            ("::FFFF:c000:0207", "192.0.2.7"), ("64:ff9b::192.0.2.7", "64:ff9b::c000:207"),
            ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
        ])
    func parses(text: String, canonical: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == canonical)
        #expect(IPAddress(canonical) == address)
    }

    @Test(
        "refuses what is not an address",
        arguments: [
            "", "1.2.3", "1.2.3.4.5", "1.2.3.4.", ".1.2.3", "0.0.0.00", "1.2.3.256", "1234.1.1.1", "1.2.3.4:",
            "256.1.1.1", "01.2.3.4", "1.2.3.04", "1..2.3", "1.2.3.4 ", " 1.2.3.4", "a.b.c.d",
            "-1.2.3.4", ":", ":::", "1:2", "1::2::3", ":1", "1:", "::1:", "12345::", "g::1", "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::", "fe80::1%eth0", "::1.2.3", "::1.2.3.4:5", "1.2.3.4::", "[::1]", "unknown", "_hidden",
            String(repeating: "1", count: 46),
        ])
    func refuses(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("an IPv4-mapped IPv6 address is the IPv4 address")
    func mapped() throws {
        let mapped = try #require(IPAddress("::ffff:10.1.2.3"))
        #expect(mapped.isIPv4)
        #expect(mapped == IPAddress("10.1.2.3"))
        #expect(IPAddress("::10.1.2.3")?.isIPv4 == false)
        #expect(IPAddress(ipv4: 0xC000_0207) == IPAddress("192.0.2.7"))
    }

    @Test(
        "reads node forms with ports and brackets",
        arguments: [
            ("192.0.2.7:4711", "192.0.2.7"), ("[2001:db8::1]:4711", "2001:db8::1"), ("[2001:db8::1]", "2001:db8::1"),
            ("2001:db8::1", "2001:db8::1"), ("192.0.2.7", "192.0.2.7"), ("192.0.2.7:_port-1", "192.0.2.7"),
            ("[::ffff:192.0.2.7]:80", "192.0.2.7"),
        ])
    func node(text: String, address: String) {
        #expect(IPAddress(node: text)?.description == address)
    }

    @Test(
        "refuses nodes that are not addresses",
        arguments: [
            "unknown", "_hidden", "_abc:80", "192.0.2.7:", "192.0.2.7:65536", "192.0.2.7:123456", "[2001:db8::1",
            "[2001:db8::1]x", "[2001:db8::1]:", "[]:80", "[192.0.2.7]", "192.0.2.7:_", "192.0.2.7:_a b", "",
        ])
    func badNode(text: String) {
        #expect(IPAddress(node: text) == nil)
    }

    @Test("masks to a prefix in its own family")
    func masking() throws {
        let v6 = try #require(IPAddress("2001:db8:1:2:3:4:5:6"))
        #expect(v6.masked(prefixLength: 64).description == "2001:db8:1:2::")
        #expect(v6.masked(prefixLength: 0).description == "::")
        #expect(v6.masked(prefixLength: 128) == v6)
        #expect(v6.masked(prefixLength: 65).description == "2001:db8:1:2::")
        let v4 = try #require(IPAddress("10.1.2.3"))
        #expect(v4.masked(prefixLength: 8).description == "10.0.0.0")
        #expect(v4.masked(prefixLength: 0).description == "0.0.0.0")
        #expect(v4.masked(prefixLength: 31).description == "10.1.2.2")
    }
}

@Suite struct CIDRTests {
    @Test(
        "parses ranges and clears host bits",
        arguments: [
            ("10.0.0.0/8", "10.0.0.0/8"), ("10.1.2.3/8", "10.0.0.0/8"), ("192.0.2.7", "192.0.2.7/32"),
            ("0.0.0.0/0", "0.0.0.0/0"), ("2001:db8::/32", "2001:db8::/32"), ("2001:db8:ff::1/48", "2001:db8:ff::/48"),
            ("::1", "::1/128"), ("::/0", "::/0"), ("::ffff:10.0.0.0/104", "10.0.0.0/8"),
        ])
    func parses(text: String, canonical: String) {
        #expect(CIDR(text)?.description == canonical)
    }

    @Test(
        "refuses malformed ranges",
        arguments: [
            "", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/08", "2001:db8::/129",
            "10.0.0.0/8/8", "10.0.0.0 /8", "::ffff:10.0.0.0/95", "example.com/8", "10.0.0.0/1000",
        ])
    func refuses(text: String) {
        #expect(CIDR(text) == nil)
    }

    @Test("contains addresses of its own family only")
    func membership() throws {
        let v4 = try #require(CIDR("10.0.0.0/8"))
        #expect(v4.contains(try #require(IPAddress("10.255.0.1"))))
        #expect(v4.contains(try #require(IPAddress("::ffff:10.0.0.1"))))
        #expect(!v4.contains(try #require(IPAddress("11.0.0.1"))))
        let all6 = try #require(CIDR("::/0"))
        #expect(all6.contains(try #require(IPAddress("2001:db8::1"))))
        #expect(!all6.contains(try #require(IPAddress("10.0.0.1"))))
        let net = try #require(CIDR("2001:db8:1::/48"))
        #expect(net.contains(try #require(IPAddress("2001:db8:1:ffff::1"))))
        #expect(!net.contains(try #require(IPAddress("2001:db8:2::1"))))
        #expect(try #require(CIDR("192.0.2.7")).contains(try #require(IPAddress("192.0.2.7"))))
    }
}

@Suite struct ForwardedHeadersTests {
    private func text(_ hops: [IPAddress?]) -> [String] { hops.map { $0?.description ?? "-" } }

    @Test("X-Forwarded-For: comma lists over several fields, whitespace, ports, garbage as unknown hops")
    func xForwardedFor() {
        #expect(text(ForwardedHeaders.xForwardedFor(["203.0.113.9"])) == ["203.0.113.9"])
        #expect(
            text(ForwardedHeaders.xForwardedFor(["203.0.113.9 ,\t2001:db8::1", "10.0.0.1:8080, [2001:db8::2]:443"]))
                == ["203.0.113.9", "2001:db8::1", "10.0.0.1", "2001:db8::2"])
        #expect(text(ForwardedHeaders.xForwardedFor(["unknown, 1.2.3.4, not an ip,"])) == ["-", "1.2.3.4", "-"])
        #expect(text(ForwardedHeaders.xForwardedFor([", ,"])) == [])
        #expect(text(ForwardedHeaders.xForwardedFor(["\u{0}\u{7F}😀"])) == ["-"])
    }

    @Test("Forwarded: for= per element, quoted IPv6 with port, case-insensitive names, other parameters ignored")
    func forwarded() {
        #expect(
            text(
                ForwardedHeaders.forwardedFor([
                    #"for=192.0.2.43, For="[2001:db8:cafe::17]:4711";proto=https;by=203.0.113.60"#,
                    #"proto=http;FOR="198.51.100.17:80""#,
                ])) == ["192.0.2.43", "2001:db8:cafe::17", "198.51.100.17"])
        #expect(text(ForwardedHeaders.forwardedFor([#"for="a\"b,c", for=192.0.2.1"#])) == ["-", "192.0.2.1"])
        #expect(text(ForwardedHeaders.forwardedFor(["for = 192.0.2.1"])) == ["-"])  // no spaces around "="
    }

    @Test("Forwarded: obfuscated, unknown, missing, doubled and malformed for= are unknown hops")
    func forwardedUnknown() {
        let values = [
            "for=unknown", "for=_hidden", "for=\"_x:_y\"", "proto=https", "for=1.2.3.4;for=5.6.7.8", "for=",
            "for=\"1.2.3.4\"x", "garbage", "for=\"[2001:db8::1\"", "for=2001:db8::1",
        ]
        #expect(
            text(ForwardedHeaders.forwardedFor(values)) == ["-", "-", "-", "-", "-", "-", "-", "-", "-", "2001:db8::1"])
    }

    @Test("Forwarded: a field with an unclosed quote is one unknown hop; fields to its right still count")
    func forwardedBrokenQuote() {
        #expect(
            text(ForwardedHeaders.forwardedFor([#"for="1.2.3.4, for=5.6.7.8"#, "for=9.9.9.9"])) == ["-", "9.9.9.9"])
    }
}

@Suite struct ClientAddressResolverTests {
    let resolver = ClientAddressResolver(
        trustedProxies: [CIDR("10.0.0.0/8"), CIDR("2001:db8:aaaa::/48")].compactMap { $0 })
    let proxy = IPAddress(ipv4: 0x0A00_0002)  // 10.0.0.2
    let stranger = IPAddress(ipv4: 0xC633_6401)  // 198.51.100.1

    private func resolve(_ peer: IPAddress, _ headers: HTTPHeaders) -> String {
        resolver.clientAddress(peer: peer, headers: headers).description
    }

    @Test("an untrusted peer is the client whatever it claims")
    func untrusted() {
        #expect(resolve(stranger, ["X-Forwarded-For": "1.2.3.4", "Forwarded": "for=1.2.3.4"]) == "198.51.100.1")
        let none = ClientAddressResolver()
        #expect(none.clientAddress(peer: proxy, headers: ["X-Forwarded-For": "1.2.3.4"]) == proxy)
    }

    @Test("the rightmost hop that is not a trusted proxy is the client; hops left of it are never read")
    func rightmost() {
        #expect(resolve(proxy, ["X-Forwarded-For": "6.6.6.6, 203.0.113.5"]) == "203.0.113.5")
        #expect(resolve(proxy, ["X-Forwarded-For": "garbage, 6.6.6.6, 203.0.113.5, 10.9.9.9"]) == "203.0.113.5")
        #expect(
            resolve(proxy, ["Forwarded": #"for=6.6.6.6, for="[2001:db8:1::5]:1234", for="[2001:db8:aaaa::1]""#])
                == "2001:db8:1::5")
        let mappedProxy = IPAddress("::ffff:10.0.0.2") ?? stranger
        #expect(resolve(mappedProxy, ["X-Forwarded-For": "203.0.113.5"]) == "203.0.113.5")
    }

    @Test("falls back to the peer: no header, all hops trusted, an unknown hop reached, headers that disagree")
    func fallbacks() {
        #expect(resolve(proxy, [:]) == "10.0.0.2")
        #expect(resolve(proxy, ["X-Forwarded-For": "10.0.0.7, 10.0.0.8"]) == "10.0.0.2")
        #expect(resolve(proxy, ["X-Forwarded-For": "203.0.113.5, unknown"]) == "10.0.0.2")
        #expect(resolve(proxy, ["X-Forwarded-For": ""]) == "10.0.0.2")
        #expect(resolve(proxy, ["Forwarded": "for=_hidden"]) == "10.0.0.2")
        #expect(resolve(proxy, ["Forwarded": #"for="unclosed"#]) == "10.0.0.2")
        #expect(resolve(proxy, ["X-Forwarded-For": "203.0.113.5", "Forwarded": "for=6.6.6.6"]) == "10.0.0.2")
        #expect(resolve(proxy, ["X-Forwarded-For": "203.0.113.5", "Forwarded": "for=203.0.113.5"]) == "203.0.113.5")
    }
}
