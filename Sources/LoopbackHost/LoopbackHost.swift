#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a written host is this machine's loopback interface, decided from the text alone (no name is resolved).
///
/// The one loopback predicate of the project: `OutboundURL`'s rule ("https, or http only to a loopback host"), the
/// client commands' clear-text warning and `PostgresURL`'s "only this machine" check all call it. No dependencies,
/// no Foundation, no libcurl, so every module can use it.
///
/// A loopback host is exactly one of:
/// - the name `localhost`, in any case, and nothing else: no trailing dot (`localhost.` goes through the resolver's
///   search rules), no subdomain (`localhost.example.com`, `127.0.0.1.evil.com` are names like any other);
/// - an IPv4 address in 127.0.0.0/8 written as a dotted quad (`inet_pton`'s form: `127.1`, `0x7f.0.0.1` and
///   `2130706433` are refused, because resolvers read them differently);
/// - the IPv6 address `::1`, in any form `inet_pton` reads (`0::1`), without brackets or zone. The IPv4-mapped
///   `::ffff:127.0.0.1` is not loopback here (it depends on the socket's dual-stack settings).
public enum LoopbackHost {
    /// Whether `host` (a bare host: no brackets, no port) is `localhost` or a loopback address.
    public static func contains(_ host: String) -> Bool {
        isLocalhostName(host) || isLoopbackAddress(host)
    }

    /// Whether `host` is the name `localhost`, in any case, exactly.
    public static func isLocalhostName(_ host: String) -> Bool {
        host.utf8.count == 9 && host.lowercased() == "localhost"
    }

    /// Whether `text` is an IPv4 address in 127.0.0.0/8 (a dotted quad) or the IPv6 address `::1`, in a form
    /// `inet_pton` accepts.
    public static func isLoopbackAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        if unsafe inet_pton(AF_INET, text, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if unsafe inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = unsafe withUnsafeBytes(of: &v6) { unsafe Array($0) }
            return bytes == Array(repeating: 0, count: 15) + [1]
        }
        return false
    }

    /// Whether `text` is an IPv6 address `inet_pton` reads (no brackets, no zone).
    public static func isIPv6Address(_ text: String) -> Bool {
        var v6 = in6_addr()
        return unsafe inet_pton(AF_INET6, text, &v6) == 1
    }
}
