import Cryptography

/// The RFC 3986 character classes `DPoPTargetURI` needs, on UTF-8 bytes.
enum URICharacters {
    /// `unreserved` (§2.3): ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Unreserved, reserved (`gen-delims`, `sub-delims`, §2.2) or `%`: every byte a URI may hold.
    static func isAllowed(_ byte: UInt8) -> Bool {
        allowed[Int(byte)]
    }

    private static let allowed: [Bool] = {
        var table = (0...255).map { isUnreserved(UInt8($0)) }
        for byte in ":/?#[]@!$&'()*+,;=%".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// The end of the authority (§3.2): `/`, `?` or `#`.
    static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }

    /// §6.2.2.2 and the case rule of §6.2.2.1: `%XX` of an unreserved character decoded, the others with
    /// upper-case hex digits; nil for a `%` not followed by two hex digits.
    static func percentNormalized(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex, let high = Hex.value(bytes[index + 1]),
                let low = Hex.value(bytes[index + 2])
            else { return nil }
            let decoded = high << 4 | low
            if isUnreserved(decoded) {
                output.append(decoded)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(uppercased(bytes[index + 1]))
                output.append(uppercased(bytes[index + 2]))
            }
            index += 3
        }
        return output
    }

    /// Lower case everywhere except the two hex digits after each `%` (§6.2.2.1: hosts are case-insensitive, the
    /// hex digits of escapes are upper case).
    static func lowercasedOutsideEscapes(_ bytes: [UInt8]) -> [UInt8] {
        var output = bytes
        var index = 0
        while index < output.count {
            if output[index] == UInt8(ascii: "%") {
                index += 3
            } else {
                output[index] = lowercased(output[index])
                index += 1
            }
        }
        return output
    }

    /// Query and fragment (dropped, but still checked): well-formed escapes and at most one `#`.
    static func validRest(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard percentNormalized(bytes) != nil else { return false }
        guard let hash = bytes.firstIndex(of: UInt8(ascii: "#")) else { return true }
        return !bytes[(hash + 1)...].contains(UInt8(ascii: "#"))
    }
}
