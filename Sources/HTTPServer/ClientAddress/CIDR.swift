/// A range of IP addresses in CIDR notation (RFC 4632 for IPv4, RFC 4291 §2.3 for IPv6): `10.0.0.0/8`,
/// `2001:db8::/32`, or a single address (`192.0.2.7` is `192.0.2.7/32`).
///
/// As Go's `net.ParseCIDR`, host bits after the prefix are cleared rather than refused (`10.1.2.3/8` is
/// `10.0.0.0/8`). An IPv4 range holds only IPv4 addresses (and so IPv4-mapped IPv6 ones, which `IPAddress`
/// treats as IPv4); an IPv6 range holds only IPv6 addresses, except that an IPv4-mapped IPv6 range such as
/// `::ffff:10.0.0.0/104` is read as the IPv4 range it names (`10.0.0.0/8`).
///
/// ```swift
/// CIDR("10.0.0.0/8")?.contains(IPAddress("10.1.2.3")!)  // true
/// ```
public struct CIDR: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the range (host bits cleared).
    public let network: IPAddress
    /// The number of leading bits that are fixed, in the family's own width: 0–32 (IPv4) or 0–128 (IPv6).
    public let prefixLength: Int

    /// The range of `address` with its first `prefixLength` bits fixed; `prefixLength` is clamped to the
    /// family's width.
    public init(address: IPAddress, prefixLength: Int) {
        let width = address.isIPv4 ? 32 : 128
        self.prefixLength = min(max(prefixLength, 0), width)
        self.network = address.masked(prefixLength: self.prefixLength)
    }

    /// Parses `address/length` or a bare address; nil when either part is not valid (a length with a sign,
    /// leading zeros or beyond the family's width, or anything `IPAddress` refuses).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        guard parts.count == 2 else {
            self.init(address: address, prefixLength: 128)
            return
        }
        let digits = parts[1].utf8
        guard (1...3).contains(digits.count), digits.allSatisfy(IPAddress.isDigit),
            digits.count == 1 || digits.first != UInt8(ascii: "0"), let length = Int(parts[1])
        else { return nil }
        // An IPv4-mapped IPv6 literal parses to an IPv4 address, but its length is written in IPv6 bits.
        let mappedIPv6 = address.isIPv4 && parts[0].contains(":")
        if mappedIPv6 {
            guard (96...128).contains(length) else { return nil }
            self.init(address: address, prefixLength: length - 96)
        } else {
            guard length <= (address.isIPv4 ? 32 : 128) else { return nil }
            self.init(address: address, prefixLength: length)
        }
    }

    /// Whether `address` is in the range.
    public func contains(_ address: IPAddress) -> Bool {
        address.isIPv4 == network.isIPv4 && address.masked(prefixLength: prefixLength) == network
    }

    /// `network/prefixLength`, e.g. `10.0.0.0/8` or `2001:db8::/32`.
    public var description: String { "\(network)/\(prefixLength)" }
}
