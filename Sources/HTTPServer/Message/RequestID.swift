/// Request ids: the client's `X-Request-Id` when sane, else a generated 15-character id (a small string,
/// so generating one does not allocate).
struct RequestIDGenerator {
    private static let digits: [UInt8] = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    private var counter: UInt64
    private let prefix: UInt64

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = generator.next() & 0x1FF_FFFF  // 25 random bits: 5 base-32 digits per event loop
        counter = generator.next() & 0xFFFF_FFFF
    }

    mutating func next() -> String {
        counter &+= 1
        let prefix = self.prefix
        let counter = self.counter
        return unsafe String(unsafeUninitializedCapacity: 15) { buffer in
            for index in 0..<5 { unsafe buffer[index] = Self.digits[Int((prefix >> (5 * (4 - index))) & 31)] }
            for index in 0..<10 { unsafe buffer[5 + index] = Self.digits[Int((counter >> (5 * (9 - index))) & 31)] }
            return 15
        }
    }

    /// Whether a client-supplied id may be echoed: 1...128 characters of `[A-Za-z0-9._-]`.
    static func isSane(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty && bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
