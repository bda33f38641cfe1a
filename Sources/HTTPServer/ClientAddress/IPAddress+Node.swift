extension IPAddress {
    /// Parses the address of a network node as proxies and sockets write it: a bare IPv4 or IPv6 address,
    /// `a.b.c.d:port`, `[IPv6]` or `[IPv6]:port` (the node syntax of RFC 7239 §6, which some proxies also use
    /// in `X-Forwarded-For`, and the form of `HTTPRequest.remoteAddress`). The port is one to five digits or
    /// an RFC 7239 obfuscated port (`_` and letters, digits, `.`, `_`, `-`); it is checked and dropped.
    /// `unknown` and obfuscated node names (`_hidden`) are not addresses: nil.
    public init?(node text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                let address = Self.parseIPv6(bytes[1..<close])
            else { return nil }
            let rest = bytes[(close + 1)...]
            guard rest.isEmpty || (rest.first == UInt8(ascii: ":") && Self.isPort(rest.dropFirst())) else {
                return nil
            }
            self = address
            return
        }
        let colons = bytes.lazy.filter { $0 == UInt8(ascii: ":") }.count
        if colons == 1, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            guard let value = Self.parseIPv4(bytes[..<colon]), Self.isPort(bytes[(colon + 1)...]) else { return nil }
            self.init(ipv4: value)
            return
        }
        guard let address = IPAddress(String(decoding: bytes, as: UTF8.self)) else { return nil }
        self = address
    }

    /// `1*5DIGIT` (at most 65535) or an RFC 7239 `obfport` (`_` then letters, digits, `.`, `_`, `-`).
    private static func isPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "_") {
            return bytes.count > 1 && bytes.dropFirst().allSatisfy(isObfuscatedCharacter)
        }
        guard bytes.count <= 5, bytes.allSatisfy(isDigit) else { return false }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 65_535
    }

    private static func isObfuscatedCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
