/// Recognises the variables Kubernetes injects for a Service named `tokenvend` ("service links"), so that a pod
/// in the same namespace as such a Service starts instead of refusing them as unknown `TOKENVEND_*` settings.
///
/// For a Service `tokenvend` with a port 8080/TCP named `http`, the kubelet sets in every pod (the Docker-links
/// compatible form; see the Kubernetes documentation "Service → Discovering services → Environment variables"):
///
/// | variable | value |
/// |---|---|
/// | `TOKENVEND_SERVICE_HOST` | `10.0.0.1` |
/// | `TOKENVEND_SERVICE_PORT` | `8080` |
/// | `TOKENVEND_SERVICE_PORT_HTTP` | `8080` (one per *named* port) |
/// | `TOKENVEND_PORT` | `tcp://10.0.0.1:8080` |
/// | `TOKENVEND_PORT_8080_TCP` | `tcp://10.0.0.1:8080` |
/// | `TOKENVEND_PORT_8080_TCP_ADDR` / `_PORT` / `_PROTO` | `10.0.0.1` / `8080` / `tcp` |
///
/// A variable counts as a service link only when its name *and* its value have that shape: `TOKENVEND_PORT=8080`
/// set by hand is a mistake (the setting is `TOKENVEND_SERVER_PORT`) and still stops startup with a suggestion.
/// Near misses such as `TOKENVEND_PORTS`, `TOKENVEND_SERVICE_HOSTNAME`, `TOKENVEND_PORT_8080_HTTP` or
/// `TOKENVEND_SERVICE_PORT_` are not service links either. Pure; no state.
enum KubernetesServiceLink {
    /// The protocols a Service port can have, as they appear in variable names.
    static let protocols = ["TCP", "UDP", "SCTP"]

    /// True when `name=value` is a service-link variable of the Service whose variable prefix is `prefix`.
    ///
    /// - Parameters:
    ///   - name: the variable name, e.g. `TOKENVEND_PORT_8080_TCP_ADDR`.
    ///   - value: its value; checked against the shape Kubernetes gives it.
    ///   - prefix: the Service name in upper case with `-` as `_`. Default: `TOKENVEND`.
    static func matches(name: String, value: String, prefix: String = "TOKENVEND") -> Bool {
        guard name.hasPrefix(prefix + "_") else { return false }
        let rest = name.dropFirst(prefix.count + 1)
        if rest == "SERVICE_HOST" { return isHost(value) }
        if rest == "SERVICE_PORT" { return port(value) != nil }
        if rest.hasPrefix("SERVICE_PORT_") {
            return isPortName(rest.dropFirst("SERVICE_PORT_".count)) && port(value) != nil
        }
        if rest == "PORT" { return address(value) != nil }
        guard rest.hasPrefix("PORT_") else { return false }
        let parts = rest.dropFirst("PORT_".count).split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let number = port(parts[0]), String(number) == parts[0],
            protocols.contains(String(parts[1]))
        else { return false }
        let proto = parts[1].lowercased()
        guard parts.count == 3 else {
            guard let (scheme, _, linkPort) = address(value) else { return false }
            return scheme == proto && linkPort == number
        }
        switch parts[2] {
        case "ADDR": return isHost(value)
        case "PORT": return port(value) == number
        case "PROTO": return value == proto
        default: return false
        }
    }

    /// A port number 1…65535 written in decimal.
    static func port(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.count <= 5, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(text), (1...65_535).contains(number)
        else { return nil }
        return number
    }

    /// An IP address or host name as Kubernetes writes it: non-empty, no spaces, no URL punctuation.
    static func isHost(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.count <= 255
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
            }
    }

    /// `tcp://10.0.0.1:8080` or `tcp://[fd00::1]:8080` → (`tcp`, host, 8080).
    static func address(_ text: String) -> (scheme: String, host: Substring, port: Int)? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = String(text[..<separator.lowerBound])
        guard protocols.contains(scheme.uppercased()), scheme == scheme.lowercased() else { return nil }
        let authority = text[separator.upperBound...]
        guard let colon = authority.lastIndex(of: ":"), let number = port(authority[authority.index(after: colon)...])
        else { return nil }
        var host = authority[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard isHost(host) else { return nil }
        return (scheme, host, number)
    }

    /// A Service port name as it appears in a variable: an IANA service name (1–15 characters, letters, digits and
    /// hyphens, at least one letter, no hyphen at either end) upper-cased with `-` as `_`.
    static func isPortName(_ text: Substring) -> Bool {
        guard (1...15).contains(text.count), text.first != "_", text.last != "_" else { return false }
        var sawLetter = false
        for byte in text.utf8 {
            if (0x41...0x5A).contains(byte) {
                sawLetter = true
            } else if !(0x30...0x39).contains(byte) && byte != UInt8(ascii: "_") {
                return false
            }
        }
        return sawLetter
    }
}
