import HTTPServer

extension ConfigurationValueCheck {
    /// A list of IP addresses or CIDR ranges (`server.trustedProxies`); an address alone is a range of one.
    /// - Throws: `ConfigurationError.invalidValue` naming the first item that is not one, or a non-list.
    func cidrList(_ value: ConfigurationValue) throws(ConfigurationError) -> [CIDR] {
        guard case .array(let items) = value else {
            throw fail(#"expected a list of IP addresses or CIDR ranges such as ["10.0.0.0/8"], got "# + value.summary)
        }
        guard items.count <= 1_000 else { throw fail("expected at most 1000 ranges, got \(items.count)") }
        var ranges: [CIDR] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, let range = CIDR(text.trimmingWhitespace) else {
                throw fail(
                    "item \(index + 1) is not an IP address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32): "
                        + item.summary)
            }
            ranges.append(range)
        }
        return ranges
    }
}
