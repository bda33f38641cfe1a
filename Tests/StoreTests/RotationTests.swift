import Foundation
import SQLiteStore
import Store
import Testing

/// `Rotation.decide`, the one refresh-rotation rule both backends call, fed plain values: every branch, and the
/// boundaries exactly at the grace window and at both expiries.
@Suite struct RotationTests {
    /// One row of the table: the session's state, what is presented and when, and the expected decision.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var counter: Int64 = 5
        /// Milliseconds after `epoch`; nil: never rotated.
        var rotatedAt: Int64? = 0
        var revoked = false
        /// Refresh expiry and absolute cap, in milliseconds after `epoch`.
        var refreshExpiresAt: Int64 = 100_000
        var expiresAt: Int64 = 1_000_000
        var userDisabled = false
        let presented: Int64
        /// Milliseconds after `epoch`.
        let now: Int64
        var grace: Duration = .seconds(10)
        let expected: Rotation

        var testDescription: String { name }

        var session: Session {
            Session(
                id: "s", userID: "u", createdAt: RotationTests.at(-1000), lastUsedAt: RotationTests.at(0),
                refreshExpiresAt: RotationTests.at(refreshExpiresAt), expiresAt: RotationTests.at(expiresAt),
                revokedAt: revoked ? RotationTests.at(0) : nil, userAgent: nil, ip: nil, counter: counter,
                rotatedAt: rotatedAt.map(RotationTests.at))
        }
    }

    static let epoch = Date(storeMilliseconds: 1_800_000_000_000)
    static func at(_ milliseconds: Int64) -> Date { Date(storeMilliseconds: epoch.storeMilliseconds + milliseconds) }

    static let cases: [Case] = [
        Case(name: "the live counter rotates", presented: 5, now: 1, expected: .rotate),
        Case(
            name: "the first rotation (counter 0, never rotated)", counter: 0, rotatedAt: nil, presented: 0, now: 1,
            expected: .rotate),
        Case(name: "a counter from the future is invalid", presented: 6, now: 1, expected: .invalid),
        Case(name: "a negative counter is invalid", presented: -1, now: 1, expected: .invalid),
        Case(
            name: "a negative counter is invalid at counter 0", counter: 0, rotatedAt: nil, presented: -1, now: 1,
            expected: .invalid),
        Case(name: "the parent converges within grace", presented: 4, now: 5_000, expected: .converged),
        Case(
            name: "the parent converges exactly at the grace window's end", presented: 4, now: 10_000,
            expected: .converged),
        Case(name: "the parent one millisecond after grace is reuse", presented: 4, now: 10_001, expected: .revoke),
        Case(name: "the parent at the rotation instant converges", presented: 4, now: 0, expected: .converged),
        Case(name: "the parent with zero grace is reuse", presented: 4, now: 0, grace: .zero, expected: .revoke),
        Case(
            name: "the parent with a negative grace is reuse", presented: 4, now: 0, grace: .seconds(-1),
            expected: .revoke),
        Case(
            name: "a grace under one millisecond counts as zero", presented: 4, now: 0, grace: .microseconds(999),
            expected: .revoke),
        Case(
            name: "the parent without a recorded rotation is reuse", rotatedAt: nil, presented: 4, now: 1,
            expected: .revoke),
        Case(name: "a grandparent within grace is reuse", presented: 3, now: 1, expected: .revoke),
        Case(name: "counter 0 long spent is reuse", presented: 0, now: 50_000, expected: .revoke),
        Case(
            name: "a revoked session is invalid for the live counter", revoked: true, presented: 5, now: 1,
            expected: .invalid),
        Case(
            name: "a revoked session is invalid for a spent counter (no second revocation)", revoked: true,
            presented: 3, now: 1, expected: .invalid),
        Case(
            name: "a disabled user's live counter is invalid", userDisabled: true, presented: 5, now: 1,
            expected: .invalid),
        Case(
            name: "a disabled user's spent counter is invalid", userDisabled: true, presented: 3, now: 1,
            expected: .invalid),
        Case(name: "one millisecond before the refresh expiry rotates", presented: 5, now: 99_999, expected: .rotate),
        Case(name: "exactly at the refresh expiry is invalid", presented: 5, now: 100_000, expected: .invalid),
        Case(
            name: "a spent counter after the refresh expiry is invalid, not reuse", presented: 3, now: 100_000,
            expected: .invalid),
        Case(
            name: "one millisecond before the cap rotates", refreshExpiresAt: 2_000_000, expiresAt: 1_000_000,
            presented: 5, now: 999_999, expected: .rotate),
        Case(
            name: "exactly at the cap is invalid", refreshExpiresAt: 2_000_000, expiresAt: 1_000_000, presented: 5,
            now: 1_000_000, expected: .invalid),
        Case(
            name: "the parent at the cap is invalid, not converged", rotatedAt: 999_990, expiresAt: 1_000_000,
            presented: 4, now: 1_000_000, expected: .invalid),
    ]

    @Test("the rotation rule decides each case of the table", arguments: cases)
    func decides(_ row: Case) {
        let decision = Rotation.decide(
            session: row.session, presentedCounter: row.presented, userDisabled: row.userDisabled,
            now: Self.at(row.now), grace: row.grace)
        #expect(decision == row.expected)
    }

    @Test("the grace window is measured in whole milliseconds of the transaction's time")
    func wholeMilliseconds() {
        let session = Case(name: "", presented: 4, now: 0, expected: .converged).session
        // 10.0009 s after the rotation is 10,000 whole milliseconds: still within a 10 s grace.
        let late = Self.at(10_000).addingTimeInterval(0.0009)
        #expect(
            Rotation.decide(session: session, presentedCounter: 4, userDisabled: false, now: late, grace: .seconds(10))
                == .converged)
    }
}
