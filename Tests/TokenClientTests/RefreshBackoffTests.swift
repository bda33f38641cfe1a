import Foundation
import Testing

@testable import TokenClient
@testable import TokenClientCore

/// The wait after failed refreshes, as pure state: doubling, capped, and `Retry-After` honoured within reason.
@Suite("RefreshBackoff")
struct RefreshBackoffTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let failure = TokenClientError.server(status: 503, body: nil)

    /// The waits of `count` failures in a row, each `retryAfter` seconds asked.
    func waits(_ count: Int, retryAfter: TimeInterval? = nil) -> [TimeInterval] {
        var backoff: RefreshBackoff?
        var waits: [TimeInterval] = []
        for _ in 0..<count {
            let next = RefreshBackoff.after(backoff, error: failure, retryAfter: retryAfter, now: start)
            waits.append(next.until.timeIntervalSince(start))
            backoff = next
        }
        return waits
    }

    @Test("the wait doubles from 1 s and stops at 60 s, however many failures follow")
    func doublesToTheCap() {
        #expect(waits(9) == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(waits(200).last == 60)
    }

    @Test("Retry-After is honoured when it asks for more than the doubling, never less")
    func retryAfterHonoured() {
        #expect(waits(3, retryAfter: 30) == [30, 30, 30])
        #expect(waits(8, retryAfter: 5) == [5, 5, 5, 8, 16, 32, 60, 60])
    }

    @Test("a Retry-After of inf, nan, a year or a negative number cannot stop refreshes for more than an hour")
    func hostileRetryAfterBounded() {
        #expect(waits(1, retryAfter: .infinity) == [1])
        #expect(waits(1, retryAfter: .nan) == [1])
        #expect(waits(1, retryAfter: 365 * 86_400) == [3600])
        #expect(waits(1, retryAfter: -50) == [1])
    }

    @Test("the backoff keeps the last failure to throw again, and counts the failures")
    func keepsTheFailure() throws {
        let first = RefreshBackoff.after(nil, error: .transport("lost"), retryAfter: nil, now: start)
        let second = RefreshBackoff.after(first, error: failure, retryAfter: nil, now: start)
        #expect(first.failures == 1 && first.error == .transport("lost"))
        #expect(second.failures == 2 && second.error == failure)
    }
}
