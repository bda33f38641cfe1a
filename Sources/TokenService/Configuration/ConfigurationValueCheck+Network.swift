import HTTPServer
import OutboundHTTP
import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationValueCheck {
    /// A list of IP addresses or CIDR ranges (`server.trustedProxies`); an address alone is a range of one.
    /// - Throws: `ConfigurationError.invalidValue` naming the first item that is not one, or a non-list.
    func cidrList(_ value: JSONValue) throws(ConfigurationError) -> [CIDR] {
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

    /// A list of names, possibly empty (`identity.trustedForLinking`): non-empty strings without duplicates.
    func nameList(_ value: JSONValue) throws(ConfigurationError) -> [String] {
        guard case .array(let items) = value else { throw fail("expected a list of names, got \(value.summary)") }
        return items.isEmpty ? [] : try stringList(value)
    }

    /// `server.publicURL`: an absolute URL, https unless the host is loopback, without credentials, query or
    /// fragment. Returns it without a trailing `/`.
    func publicURL(_ value: JSONValue) throws(ConfigurationError) -> String {
        let text = try string(value).trimmingWhitespace
        let expected = "expected an https URL without query or fragment (http only to localhost, 127.0.0.1 or ::1)"
        guard OutboundURL.accepts(text), let url = URL(string: text), url.user == nil, url.password == nil,
            url.query == nil, url.fragment == nil, !text.contains("?"), !text.contains("#")
        else { throw fail("\(expected), got \(value.summary)") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
