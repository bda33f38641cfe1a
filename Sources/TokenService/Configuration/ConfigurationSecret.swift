extension TokenServiceConfiguration {
    /// A secret string from the configuration, whose description never shows it.
    ///
    /// Its UTF-8 bytes are the key material (Bloomreach signs with the UTF-8 bytes of the secret string, so the
    /// same rule holds for every secret here).
    public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
        /// The secret itself. Never log it.
        public let value: String

        /// Wraps `value`.
        public init(_ value: String) { self.value = value }

        /// The UTF-8 bytes of ``value``: the key material.
        public var bytes: [UInt8] { Array(value.utf8) }

        /// Length in bytes only.
        public var description: String { "<redacted, \(value.utf8.count) bytes>" }

        /// Length in bytes only.
        public var debugDescription: String { description }
    }
}
