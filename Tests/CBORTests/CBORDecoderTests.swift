import CBOR
import Cryptography
import Testing

/// Hex text to bytes (test vectors; an invalid one decodes to nothing and fails its test).
private func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex) ?? [] }

@Suite struct CBORDecoderTests {
    /// RFC 8949 Appendix A, the definite-length vectors (indefinite ones are refused, below).
    static let vectors: [(String, CBORValue)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
        ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615)),
        ("c249010000000000000000", .tagged(2, .bytes(bytes("010000000000000000")))),
        ("3bffffffffffffffff", .negative(18_446_744_073_709_551_615)),
        ("c349010000000000000000", .tagged(3, .bytes(bytes("010000000000000000")))),
        ("20", .negative(0)), ("29", .negative(9)), ("3863", .negative(99)), ("3903e7", .negative(999)),
        ("f90000", .float(0.0)), ("f93c00", .float(1.0)), ("fb3ff199999999999a", .float(1.1)),
        ("f93e00", .float(1.5)), ("f97bff", .float(65504.0)), ("fa47c35000", .float(100000.0)),
        ("fa7f7fffff", .float(3.4028234663852886e+38)), ("fb7e37e43c8800759c", .float(1.0e+300)),
        ("f90001", .float(5.960464477539063e-8)), ("f90400", .float(0.00006103515625)), ("f9c400", .float(-4.0)),
        ("fbc010666666666666", .float(-4.1)), ("f97c00", .float(.infinity)), ("f9fc00", .float(-.infinity)),
        ("fa7f800000", .float(.infinity)), ("faff800000", .float(-.infinity)),
        ("fb7ff0000000000000", .float(.infinity)),
        ("fbfff0000000000000", .float(-.infinity)),
        ("f4", .boolean(false)), ("f5", .boolean(true)), ("f6", .null), ("f7", .undefined), ("f0", .simple(16)),
        ("f8ff", .simple(255)),
        ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, .text("2013-03-21T20:04:00Z"))),
        ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))),
        ("c1fb41d452d9ec200000", .tagged(1, .float(1363896240.5))),
        ("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
        ("d818456449455446", .tagged(24, .bytes(bytes("6449455446")))),
        ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, .text("http://www.example.com"))),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")),
        ("6449455446", .text("IETF")), ("62225c", .text("\"\\")), ("62c3bc", .text("\u{00fc}")),
        ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")), ("80", .array([])),
        ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        (
            "8301820203820405",
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
        ),
        ("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .unsigned(UInt64($0)) })),
        ("a0", .map([])),
        (
            "a201020304",
            .map([.init(key: .unsigned(1), value: .unsigned(2)), .init(key: .unsigned(3), value: .unsigned(4))])
        ),
        (
            "a26161016162820203",
            .map([
                .init(key: .text("a"), value: .unsigned(1)),
                .init(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)])),
            ])
        ),
        ("826161a161626163", .array([.text("a"), .map([.init(key: .text("b"), value: .text("c"))])])),
        (
            "a56161614161626142616361436164614461656145",
            .map(
                ["a", "b", "c", "d", "e"].map {
                    .init(key: .text($0), value: .text($0.uppercased()))
                })
        ),
    ]

    @Test("decodes every definite-length example of RFC 8949 Appendix A", arguments: vectors.indices)
    func appendixA(index: Int) throws {
        let (hex, expected) = Self.vectors[index]
        #expect(try CBORDecoder().decode(bytes(hex)) == expected, "\(hex)")
    }

    @Test("decodes a NaN half float")
    func nan() throws {
        guard case .float(let value) = try CBORDecoder().decode(bytes("f97e00")) else {
            Issue.record("not a float")
            return
        }
        #expect(value.isNaN)
    }

    @Test(
        "refuses RFC 8949 Appendix A's indefinite-length items and a stray break",
        arguments: [
            "5f42010243030405ff", "7f657374726561646d696e67ff", "9fff", "9f018202039f0405ffff",
            "bf61610161629f0203ffff", "ff",
        ])
    func indefinite(hex: String) {
        #expect(throws: CBORError(.indefiniteLength, at: hex == "9f018202039f0405ffff" ? 0 : 0)) {
            try CBORDecoder().decode(bytes(hex))
        }
    }

    @Test("refuses every truncation of every vector, never crashing", arguments: vectors.indices)
    func truncations(index: Int) {
        let data = bytes(Self.vectors[index].0)
        for count in 0..<data.count {
            #expect(throws: CBORError.self) { try CBORDecoder().decode(Array(data.prefix(count))) }
        }
    }

    @Test("refuses trailing bytes at their offset")
    func trailing() {
        #expect(throws: CBORError(.trailingBytes, at: 1)) { try CBORDecoder().decode([0x01, 0x02]) }
        #expect(throws: CBORError(.trailingBytes, at: 3)) { try CBORDecoder().decode(bytes("820102ff")) }
    }

    @Test(
        "refuses lengths and counts beyond the remaining bytes without allocating",
        arguments: [
            "9bffffffffffffffff", "bbffffffffffffffff", "5bffffffffffffffff00", "7bffffffffffffffff",
            "9a7fffffff", "9903e80102", "a30102", "5a00010000", "7901000102",
        ])
    func hostileLengths(hex: String) {
        #expect(throws: CBORError.self) { try CBORDecoder().decode(bytes(hex)) }
    }

    @Test("decodes nesting up to 16 levels and refuses 17", arguments: [1, 15, 16, 17, 200])
    func depth(levels: Int) throws {
        let arrays = [UInt8](repeating: 0x81, count: levels) + [0x00]
        let tags = [UInt8](repeating: 0xC1, count: levels) + [0x00]
        let maps = [UInt8](repeating: 0, count: 0) + (0..<levels).flatMap { _ in [0xA1, 0x00] } + [0x00]
        for data in [arrays, tags, maps] {
            if levels <= 16 {
                _ = try CBORDecoder().decode(data)
            } else {
                let error = #expect(throws: CBORError.self) { try CBORDecoder().decode(data) }
                #expect(error?.kind == .tooDeep && error?.offset == 16 * (data == maps ? 2 : 1))
            }
        }
    }

    @Test(
        "refuses reserved additional information, two-byte simple values below 32, bad UTF-8 and duplicate keys",
        arguments: [
            ("1c", CBORError.Kind.reservedAdditionalInfo), ("3d", .reservedAdditionalInfo),
            ("fc", .reservedAdditionalInfo),
            ("f818", .invalidSimpleValue), ("f800", .invalidSimpleValue), ("62c328", .invalidUTF8),
            ("61ff", .invalidUTF8),
            ("a2616101616102", .duplicateKey), ("a2010101ff", .duplicateKey),
        ])
    func wellFormedness(hex: String, kind: CBORError.Kind) {
        let error = #expect(throws: CBORError.self) { try CBORDecoder().decode(bytes(hex)) }
        #expect(error?.kind == kind, "\(hex)")
    }

    @Test("refuses input over the size limit before reading it")
    func inputLimit() throws {
        let decoder = CBORDecoder(limits: .init(maximumInputBytes: 4))
        #expect(throws: CBORError(.inputTooLarge, at: 0)) { try decoder.decode(bytes("4401020304")) }
        #expect(try decoder.decode(bytes("43010203")) == .bytes([1, 2, 3]))
    }

    @Test("decodes a prefix and reports where it ends, for CBOR followed by other bytes")
    func prefix() throws {
        let data = bytes("ff" + "a201020304" + "ee")
        let (value, end) = try CBORDecoder().decodePrefix(data, from: 1)
        #expect(value[1] == .unsigned(2) && value[3] == .unsigned(4))
        #expect(end == 6)
    }

    @Test("reads map members by text and integer keys, and typed accessors answer nil for other types")
    func accessors() throws {
        let value = try CBORDecoder().decode(bytes("a3636b6579440102030420182a6161f6"))
        #expect(value["key"]?.bytesValue == [1, 2, 3, 4])
        #expect(value[-1]?.intValue == 42)
        #expect(value["a"] == .null)
        #expect(value["missing"] == nil)
        #expect(value["key"]?.textValue == nil)
        #expect(CBORValue.unsigned(.max).intValue == nil)
        #expect(CBORValue(-5) == .negative(4))
    }

    @Test("never crashes on any two- and three-byte input")
    func exhaustiveShortInputs() {
        for first in 0...255 {
            for second in 0...255 {
                _ = try? CBORDecoder().decode([UInt8(first), UInt8(second)])
                _ = try? CBORDecoder().decode([UInt8(first), UInt8(second), 0x01])
            }
        }
    }
}
