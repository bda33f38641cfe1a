/// An address with an optional display name, as `From` and `To` carry it.
///
/// Read from `"Name <addr@host>"`, `"\"Name, Jr.\" <addr@host>"` or `"addr@host"`. The address is ASCII: a
/// dot-atom local part (RFC 5322 §3.2.3, no quoted local parts) and a host of letters, digits, `-` and `.`
/// labels; the display name is any text without CR, LF or NUL (quotes around it are removed). Header injection is
/// refused, never cleaned: CR, LF or NUL anywhere throws.
///
/// ```swift
/// let from = try Mailbox("tokenvend <no-reply@example.com>")
/// from.headerValue    // "tokenvend <no-reply@example.com>"
/// ```
public struct Mailbox: Sendable, Hashable {
    /// The display name, without quotes; `nil` when none was written.
    public let displayName: String?
    /// `local@host`, as written.
    public let address: String

    /// Reads `text`; `field` names it in errors (`From`, `To`, `email.from`).
    ///
    /// - Throws: ``MailError/controlCharacter(field:)`` for CR, LF or NUL; ``MailError/invalidAddress(field:)``
    ///   when it is not one of the forms above.
    public init(_ text: String) throws(MailError) {
        try self.init(text, field: "address")
    }

    /// ``init(_:)`` with the field name used in errors.
    init(_ text: String, field: String) throws(MailError) {
        guard !HeaderText.hasControlCharacter(text) else { throw .controlCharacter(field: field) }
        let trimmed = HeaderText.trimmed(text)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            var name = HeaderText.trimmed(trimmed[..<open])
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                name = String(name.dropFirst().dropLast())
            }
            guard Self.isAddress(address) else { throw .invalidAddress(field: field) }
            self.address = address
            self.displayName = name.isEmpty ? nil : name
        } else {
            guard Self.isAddress(trimmed) else { throw .invalidAddress(field: field) }
            self.address = trimmed
            self.displayName = nil
        }
    }

    /// The header field value: `addr@host`, or `Name <addr@host>` with the name as atoms, a quoted string, or RFC
    /// 2047 encoded-words when it is not ASCII. May hold folds (CRLF and a space) to keep lines short.
    public var headerValue: String {
        guard let displayName else { return address }
        return HeaderText.phrase(displayName) + " <" + address + ">"
    }

    /// The domain of the address (what follows the `@`).
    var domain: String {
        guard let at = address.lastIndex(of: "@") else { return address }
        return String(address[address.index(after: at)...])
    }

    /// `local@host`: a dot-atom local part of at most 64 bytes and a host name of at most 253 bytes.
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count), (1...253).contains(parts[1].utf8.count)
        else { return false }
        return HeaderText.isDotAtom(parts[0]) && isHostName(parts[1])
    }

    /// Labels of letters, digits and `-`, separated by single dots.
    private static func isHostName(_ host: Substring) -> Bool {
        host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count)
                && label.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                        true
                    default: false
                    }
                }
        }
    }
}
