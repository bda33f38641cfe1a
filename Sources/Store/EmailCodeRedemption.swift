internal import Cryptography

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The email-code rule of `EmailStoring.redeemCode`, written once: both backends read the stored code inside their
/// transaction (locked on PostgreSQL), ask `decide`, and write what it answers.
///
/// Rules, in order: no code → `.missing`; a code expired at `now` (`expiresAt <= now`, whole milliseconds) →
/// `.missing`, and the row is deleted; equal hashes (compared in constant time, `ConstantTime.equals`) → `.accepted`,
/// and the row is deleted; otherwise a wrong try: the row's tries go up by one, and it is deleted when they reach
/// `maxAttempts` (at least 1).
package enum EmailCodeRedemption: Sendable, Equatable {
    /// Nothing stored: answer `.missing`, change nothing.
    case missing
    /// The code expired: delete it and answer `.missing`.
    case expired
    /// The right code in time: delete it and answer `.accepted(code)`.
    case accept
    /// A wrong code: set the row's tries to `attempts`, and answer `.rejected(attemptsLeft:)`.
    case reject(attempts: Int, attemptsLeft: Int)
    /// A wrong code that used the last try: delete the row and answer `.rejected(attemptsLeft: 0)`.
    case kill

    /// Decides a presentation from the row as read in the backend's transaction.
    /// - Parameters:
    ///   - stored: the row of the purpose and subject, or nil.
    ///   - hash: the keyed hash of the presented code.
    ///   - maxAttempts: how many wrong tries kill a code (values below 1 count as 1).
    ///   - now: the transaction's time.
    package static func decide(stored: EmailCode?, hash: String, maxAttempts: Int, now: Date) -> Self {
        guard let stored else { return .missing }
        guard stored.expiresAt.storeMilliseconds > now.storeMilliseconds else { return .expired }
        if ConstantTime.equals(Array(stored.hash.utf8), Array(hash.utf8)) { return .accept }
        let attempts = stored.attempts + 1
        let limit = max(maxAttempts, 1)
        guard attempts < limit else { return .kill }
        return .reject(attempts: attempts, attemptsLeft: limit - attempts)
    }

    /// What `redeemCode` answers for this decision about `stored`.
    package func check(_ stored: EmailCode?) -> EmailCodeCheck {
        switch self {
        case .missing, .expired: .missing
        case .accept: stored.map(EmailCodeCheck.accepted) ?? .missing
        case .reject(_, let attemptsLeft): .rejected(attemptsLeft: attemptsLeft)
        case .kill: .rejected(attemptsLeft: 0)
        }
    }
}
