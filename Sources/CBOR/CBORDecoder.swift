/// A strict decoder of RFC 8949 CBOR from bytes: definite lengths only, bounded size and depth, no trailing bytes.
///
/// Every length and item count is checked against the bytes that remain before anything is allocated (an array
/// item takes at least one byte, a map entry two), so a header claiming 2^64 items costs nothing. Maps refuse
/// duplicate keys; text strings must be valid UTF-8. Pure and `Sendable`.
///
/// ```swift
/// let object = try CBORDecoder().decode(bytes)
/// let format = object["fmt"]?.textValue
/// ```
public struct CBORDecoder: Sendable {
    /// The decoder's limits.
    public struct Limits: Sendable, Hashable {
        /// The largest input accepted, in bytes. Default: 64 KiB.
        public var maximumInputBytes: Int
        /// The deepest nesting of arrays, maps and tags; at most 16. Default: 16.
        public var maximumDepth: Int

        /// Limits with `maximumInputBytes` and `maximumDepth` (clamped to 1...16).
        public init(maximumInputBytes: Int = 64 * 1024, maximumDepth: Int = 16) {
            self.maximumInputBytes = max(0, maximumInputBytes)
            self.maximumDepth = min(max(1, maximumDepth), 16)
        }

        /// 64 KiB, depth 16.
        public static let `default` = Limits()
    }

    /// The limits in force.
    public let limits: Limits

    /// A decoder with `limits`.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Decodes `bytes` as exactly one data item.
    /// - Throws: ``CBORError`` with its kind and offset; `.trailingBytes` when bytes follow the item.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw CBORError(.trailingBytes, at: end) }
        return value
    }

    /// Decodes the one data item that starts at `start`, and returns it with the offset just past it (for
    /// structures that embed CBOR followed by more bytes, such as authenticator data's COSE key).
    /// - Throws: ``CBORError``; never `.trailingBytes`.
    public func decodePrefix(_ bytes: [UInt8], from start: Int) throws(CBORError) -> (CBORValue, end: Int) {
        guard bytes.count <= limits.maximumInputBytes else { throw CBORError(.inputTooLarge, at: 0) }
        guard start >= 0, start <= bytes.count else { throw CBORError(.truncated, at: start) }
        var reader = CBORReader(bytes: bytes, position: start, maximumDepth: limits.maximumDepth)
        let value = try reader.item(depth: 0)
        return (value, reader.position)
    }
}
