/// Why a byte string is not an acceptable CBOR data item, and the offset where the decoder stopped.
///
/// Never carries input bytes, so it can be logged.
public struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// The input is longer than ``CBORDecoder/Limits/maximumInputBytes``.
        case inputTooLarge
        /// The input ends inside a data item (a header, an argument, a string or a container).
        case truncated
        /// Additional information 28–30 (reserved by RFC 8949 §3).
        case reservedAdditionalInfo
        /// An indefinite length (additional information 31), or a stray "break" byte: refused.
        case indefiniteLength
        /// A length or item count larger than the bytes that remain could hold.
        case lengthTooLarge
        /// Arrays, maps and tags nested deeper than ``CBORDecoder/Limits/maximumDepth``.
        case tooDeep
        /// A text string that is not valid UTF-8.
        case invalidUTF8
        /// A simple value below 32 encoded in two bytes (not well-formed, RFC 8949 §3.3).
        case invalidSimpleValue
        /// A map key that appears twice.
        case duplicateKey
        /// Bytes after the one data item.
        case trailingBytes
    }

    /// What went wrong.
    public var kind: Kind
    /// The byte offset of the item (or byte) that caused it.
    public var offset: Int

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// `CBOR <kind> at offset <n>`.
    public var description: String { "CBOR \(kind) at offset \(offset)" }
}
