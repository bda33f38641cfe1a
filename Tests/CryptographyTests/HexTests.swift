import Testing

@testable import Cryptography

/// The one hex codec: lowercase out, either case in, nothing else accepted.
@Suite struct HexTests {
    @Test("every byte value round-trips, written in lowercase")
    func roundTrip() {
        let every = (0...255).map { UInt8($0) }
        let text = Hex.encode(every)
        #expect(text.count == 512 && text.hasPrefix("000102") && text.hasSuffix("fdfeff"))
        #expect(Hex.decode(text) == every)
        #expect(Hex.encode([]) == "" && Hex.decode("") == [])
    }

    @Test("upper case is read; an odd length or a non-hex character is refused")
    func decoding() {
        #expect(Hex.decode("DEADbeef") == [0xde, 0xad, 0xbe, 0xef])
        for bad in ["abc", "0g", "zz", " 00", "0x00", "é0"] { #expect(Hex.decode(bad) == nil, "\(bad)") }
    }
}
