public import Logging

/// A field value for `SortedFieldsLogging`, written straight into the line: numbers as digits, without a
/// `Logger.MetadataValue` or an intermediate `String` (the HTTP server's access line uses it once per request).
///
/// Each case writes exactly what its `metadataValue` would write through `Logger`, so the two paths give the
/// same line byte for byte.
public enum LogFieldValue: Sendable {
    /// A string, escaped as the format needs.
    case string(String)
    /// A non-negative integer in decimal, as `String(value)`.
    case unsigned(UInt64)
    /// A duration in microseconds written in milliseconds as `Double(micros) / 1000` describes itself
    /// (`"0.042"`, `"12.5"`, `"3.0"`), without floating-point formatting.
    case milliseconds(micros: UInt64)
    /// Any other metadata value (arrays, dictionaries, `stringConvertible`).
    case metadata(Logger.MetadataValue)

    /// The same value as swift-log metadata (for handlers without the typed path).
    public var metadataValue: Logger.MetadataValue {
        switch self {
        case .string(let string): .string(string)
        case .unsigned(let value): .string(String(value))
        case .milliseconds(let micros): .string(Self.millisecondsText(micros: micros))
        case .metadata(let value): value
        }
    }

    /// `micros / 1000` as `Double(micros) / 1000` describes itself, as a `String`.
    public static func millisecondsText(micros: UInt64) -> String {
        var bytes: [UInt8] = []
        appendMilliseconds(micros: micros, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `micros / 1000` as `Double(micros) / 1000` describes itself: the whole part, a dot, and the
    /// fraction without trailing zeros (at least one digit).
    static func appendMilliseconds(micros: UInt64, to bytes: inout [UInt8]) {
        appendDecimal(micros / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        var fraction = micros % 1000
        guard fraction != 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor: UInt64 = digits == 3 ? 100 : digits == 2 ? 10 : 1
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        guard value >= 10 else {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        let start = bytes.count
        var rest = value
        while rest > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        bytes[start...].reverse()
    }
}
