import Cryptography

/// The text rules of the `passkeys` section's values.
extension PasskeyConfiguration {
    /// A lowercase DNS name of at least two labels (letters, digits, inner hyphens; 1–63 characters each; 253 in
    /// all; the last label not numeric, so no IPv4 address), or `localhost`.
    static func isRPID(_ text: String) -> Bool {
        if text == "localhost" { return true }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 253, labels.count >= 2, let last = labels.last,
            !last.allSatisfy({ ("0"..."9").contains($0) })
        else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { byte in
                    (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
                }
        }
    }

    /// `https://<rpID or a subdomain>[:port]`, `http://localhost[:port]` when `rpID` is `localhost`, or
    /// `android:apk-key-hash:` and 43 base64url characters (a SHA-256).
    static func isOrigin(_ text: String, rpID: String) -> Bool {
        let apkPrefix = "android:apk-key-hash:"
        if text.hasPrefix(apkPrefix) {
            let hash = String(text.dropFirst(apkPrefix.count))
            return hash.utf8.count == 43 && Base64URL.decode(hash)?.count == 32
        }
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst("https://".count)
        } else if rpID == "localhost", text.hasPrefix("http://") {
            rest = text.dropFirst("http://".count)
        } else {
            return false
        }
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port), parts[1].first != "0",
                parts[1].allSatisfy({ ("0"..."9").contains($0) })
            else { return false }
        }
        guard host == rpID || host.hasSuffix("." + rpID) else { return false }
        return host == rpID || isRPID(host)
    }

    /// An Android application id: at least two dot-separated segments, each an ASCII letter followed by letters,
    /// digits or `_`; at most 255 characters.
    static func isAndroidPackage(_ text: String) -> Bool {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 255, segments.count >= 2 else { return false }
        return segments.allSatisfy { segment in
            guard let first = segment.first, first.isASCII, first.isLetter else { return false }
            return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }

    /// A certificate's SHA-256 as 64 hex digits (either case), plain or as 32 colon-separated pairs.
    static func certificateFingerprint(_ text: String) -> [UInt8]? {
        let hex: String
        if text.contains(":") {
            let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
            guard pairs.count == 32, pairs.allSatisfy({ $0.utf8.count == 2 }) else { return nil }
            hex = pairs.joined()
        } else {
            hex = text
        }
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex) else { return nil }
        return bytes
    }
}
