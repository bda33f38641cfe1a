import StructuredLogging

extension IPAddress {
    /// Appends the address as `description` writes it: IPv4 as digits without building a `String` (the access
    /// line does this once per request); IPv6, rarer here, through `description`.
    func appendLogText(to bytes: inout [UInt8]) {
        guard isIPv4 else {
            bytes.append(contentsOf: description.utf8)
            return
        }
        let value = UInt32(truncatingIfNeeded: low)
        for shift in [24, 16, 8, 0] as [UInt32] {
            let part = UInt8(truncatingIfNeeded: value >> shift)
            if part >= 100 { bytes.append(UInt8(ascii: "0") + part / 100) }
            if part >= 10 { bytes.append(UInt8(ascii: "0") + part / 10 % 10) }
            bytes.append(UInt8(ascii: "0") + part % 10)
            if shift != 0 { bytes.append(UInt8(ascii: ".")) }
        }
    }
}

/// The client address as the access line's `client.address` (the conformance stays inside this module).
struct ClientAddressLogText: LogTextWritable {
    let address: IPAddress

    func appendLogText(to bytes: inout [UInt8]) { address.appendLogText(to: &bytes) }
}
