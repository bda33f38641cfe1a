/// An Apple app id, `TEAMID.bundle.id`: the rule `passkeys.appleAppIds` and App Attest's `integrity.apple.appIds`
/// share.
package enum AppleAppID {
    /// Whether `text` is ten uppercase letters or digits, a dot, then a bundle id (ASCII letters, digits, `.`, `-`;
    /// not starting or ending with a dot); at most 255 characters in all.
    package static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 11, bytes.count <= 255, bytes[10] == UInt8(ascii: "."),
            bytes[0..<10].allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
        else { return false }
        let bundle = bytes[11...]
        guard bundle.first != UInt8(ascii: "."), bundle.last != UInt8(ascii: ".") else { return false }
        return bundle.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
