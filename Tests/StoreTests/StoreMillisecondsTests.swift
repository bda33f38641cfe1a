import Foundation
import SQLiteStore
import Store
import Testing

/// The one Duration → milliseconds rule and the one Date ↔ milliseconds rule that both backends store times with.
@Suite struct StoreMillisecondsTests {
    @Test(
        "a duration becomes whole milliseconds, rounded down, saturating",
        arguments: [
            (Duration.zero, Int64(0)), (.milliseconds(1), 1), (.microseconds(1999), 1), (.seconds(90), 90_000),
            (.nanoseconds(-1), 0), (.milliseconds(-1), -1), (.seconds(Int64.max), .max), (.seconds(Int64.min), .min),
        ])
    func durations(duration: Duration, milliseconds: Int64) {
        #expect(duration.storeMilliseconds == milliseconds)
    }

    @Test("a date becomes milliseconds since 1970, rounded down, and back")
    func dates() {
        #expect(Date(timeIntervalSince1970: 1.2349).storeMilliseconds == 1234)
        #expect(Date(timeIntervalSince1970: -0.0005).storeMilliseconds == -1)
        #expect(Date(storeMilliseconds: 1_800_000_000_123) == Date(timeIntervalSince1970: 1_800_000_000.123))
        for milliseconds in stride(from: Int64(1_800_000_000_000), to: 1_800_000_010_000, by: 7) {
            #expect(Date(storeMilliseconds: milliseconds).storeMilliseconds == milliseconds)
        }
    }
}
