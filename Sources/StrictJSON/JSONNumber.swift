/// The project's one decimal integer writer, for JSON numbers and HTTP header values alike.
///
/// ```swift
/// var body: [UInt8] = []
/// JSONNumber.append(-42, to: &body)  // -42
/// ```
public enum JSONNumber {
    /// Appends the decimal digits of `value`, with a leading `-` when negative; no allocation.
    ///
    /// - Parameters:
    ///   - value: Any `Int64`, including `Int64.min`.
    ///   - output: The buffer to append to.
    @inlinable
    public static func append(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        // Work on the magnitude as UInt64 so Int64.min does not overflow.
        append(magnitude: value.magnitude, to: &output)
    }

    /// Appends the decimal digits of `value`, with a leading `-` when negative; no allocation.
    @inlinable
    public static func append(_ value: Int, to output: inout [UInt8]) {
        append(Int64(value), to: &output)
    }

    /// Appends the decimal digits of `magnitude` (at most 20) without a sign.
    @inlinable
    public static func append(magnitude: UInt64, to output: inout [UInt8]) {
        guard magnitude >= 10 else {
            output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        unsafe withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = magnitude
            var index = buffer.count
            while remaining > 0 {
                index -= 1
                unsafe buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            }
            unsafe output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}
