import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `2026-11-22T03:41:04.123Z` from the real-time clock, formatted by hand (no Foundation formatter per line).
///
/// The `YYYY-MM-DDTHH:MM:SS.` prefix is cached per second (behind a `Mutex`), so a line costs one
/// `clock_gettime` and three digits.
enum UTCTimestamp {
    private static let cache = Mutex<(second: Int, prefix: [UInt8])>((-1, []))

    /// The current time as a string.
    static func now() -> String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the current time's ASCII bytes to `bytes`.
    static func append(to bytes: inout [UInt8]) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let second = Int(spec.tv_sec)
        cache.withLock { cache in
            if cache.second != second {
                cache = (second, prefix(second))
            }
            bytes.append(contentsOf: cache.prefix)
        }
        let millis = Int(spec.tv_nsec / 1_000_000)
        bytes.append(UInt8(ascii: "0") + UInt8(millis / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(millis / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(millis % 10))
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func prefix(_ second: Int) -> [UInt8] {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-"
        text += pad(Int(parts.tm_mday), 2) + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2)
        text += ":" + pad(Int(parts.tm_sec), 2) + "."
        return Array(text.utf8)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
