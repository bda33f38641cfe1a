/// An IPv4 or IPv6 address, parsed from text without the C library.
///
/// Both families are held as 128 bits; an IPv4 address is held in its IPv4-mapped IPv6 form
/// (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2), so an IPv4-mapped IPv6 address *is* the IPv4 address: it compares
/// equal, prints in dotted form and falls in IPv4 ranges. Zone identifiers (`fe80::1%eth0`) are not accepted.
///
/// ```swift
/// IPAddress("192.0.2.7")?.description          // "192.0.2.7"
/// IPAddress("::FFFF:192.0.2.7")?.isIPv4        // true
/// IPAddress("2001:DB8:0:0:0:0:0:1")?.description  // "2001:db8::1" (RFC 5952)
/// ```
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The upper 64 bits of the 128-bit form.
    let high: UInt64
    /// The lower 64 bits of the 128-bit form.
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses an IPv4 address in dotted-decimal form (four decimal parts 0–255, no leading zeros, which some
    /// parsers read as octal) or an IPv6 address in RFC 4291 §2.2 text form; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 45 else { return nil }
        if bytes.contains(UInt8(ascii: ":")) {
            guard let parsed = Self.parseIPv6(bytes[...]) else { return nil }
            self = parsed
        } else {
            guard let value = Self.parseIPv4(bytes[...]) else { return nil }
            self.init(ipv4: value)
        }
    }

    /// The IPv4 address with this 32-bit value (network order: `0xC0000207` is 192.0.2.7).
    public init(ipv4 value: UInt32) {
        self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(value))
    }

    /// Whether this is an IPv4 address (or an IPv4-mapped IPv6 address, which is the same thing).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The address with every bit after the first `prefixLength` cleared. `prefixLength` counts in the
    /// address's own family: 0–32 for IPv4, 0–128 for IPv6; larger values keep the address unchanged.
    public func masked(prefixLength: Int) -> IPAddress {
        let bits = max(0, isIPv4 ? 96 + min(prefixLength, 32) : min(prefixLength, 128))
        let highMask: UInt64 = bits >= 64 ? .max : (bits == 0 ? 0 : ~(UInt64.max >> bits))
        let lowMask: UInt64 = bits >= 128 ? .max : (bits <= 64 ? 0 : ~(UInt64.max >> (bits - 64)))
        return IPAddress(high: high & highMask, low: low & lowMask)
    }

    /// Dotted decimal for IPv4; for IPv6 the canonical text of RFC 5952 (lowercase hex, leading zeros
    /// dropped, the longest run of two or more zero groups, the first on a tie, written as `::`).
    public var description: String {
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: low)
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        }
        let groups = (0..<8).map { index -> UInt16 in
            let word = index < 4 ? high : low
            return UInt16(truncatingIfNeeded: word >> (48 - 16 * UInt64(index % 4)))
        }
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > bestLength {
                bestStart = index
                bestLength = end - index
            }
            index = end
        }
        func hex(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        guard bestStart >= 0 else { return hex(0..<8) }
        return hex(0..<bestStart) + "::" + hex((bestStart + bestLength)..<8)
    }

    /// Four decimal parts 0–255 separated by dots, without leading zeros; the 32-bit value or nil.
    /// One pass without allocating: the peer's address is parsed on every request.
    static func parseIPv4(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        var part: UInt32 = 0
        var digits = 0
        var parts = 0
        var leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return nil }
                value = value << 8 | part
                parts += 1
                part = 0
                digits = 0
                leadingZero = false
                continue
            }
            guard isDigit(byte), digits < 3, !leadingZero else { return nil }
            leadingZero = digits == 0 && byte == UInt8(ascii: "0")
            part = part * 10 + UInt32(byte - UInt8(ascii: "0"))
            guard part <= 255 else { return nil }
            digits += 1
        }
        guard digits > 0, parts == 3 else { return nil }
        return value << 8 | part
    }

    /// Eight groups of one to four hex digits, at most one `::` standing for one or more zero groups, and
    /// optionally a dotted IPv4 address as the last two groups (RFC 4291 §2.2).
    static func parseIPv6(_ bytes: ArraySlice<UInt8>) -> IPAddress? {
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var sawGap = false
        var rest = bytes
        if rest.starts(with: [UInt8(ascii: ":"), UInt8(ascii: ":")]) {
            sawGap = true
            rest = rest.dropFirst(2)
        } else if rest.first == UInt8(ascii: ":") {
            return nil
        }
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
            let piece = rest[rest.startIndex..<end]
            if end == rest.endIndex, piece.contains(UInt8(ascii: ".")) {
                guard let value = parseIPv4(piece) else { return nil }
                let pair = [UInt16(value >> 16), UInt16(value & 0xFFFF)]
                if sawGap { tail += pair } else { head += pair }
                rest = rest[end...]
                break
            }
            guard (1...4).contains(piece.count), let group = UInt16(hex: piece) else { return nil }
            if sawGap { tail.append(group) } else { head.append(group) }
            rest = rest[end...]
            guard !rest.isEmpty else { break }
            rest = rest.dropFirst()  // the ":"
            if rest.first == UInt8(ascii: ":") {
                guard !sawGap else { return nil }
                sawGap = true
                rest = rest.dropFirst()
            } else if rest.isEmpty {
                return nil  // a single trailing ":"
            }
        }
        let count = head.count + tail.count
        guard sawGap ? count <= 7 : count == 8 else { return nil }
        let groups = head + [UInt16](repeating: 0, count: 8 - count) + tail
        let high = groups[0..<4].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
        let low = groups[4..<8].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
        return IPAddress(high: high, low: low)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

extension UInt16 {
    /// The value of one to four hex digits, or nil.
    fileprivate init?(hex digits: ArraySlice<UInt8>) {
        var value: UInt16 = 0
        for byte in digits {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        self = value
    }
}
