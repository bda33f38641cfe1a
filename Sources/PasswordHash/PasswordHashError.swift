/// Every failure of password hashing.
public enum PasswordHashError: Error, Sendable, Equatable {
    /// The time or memory cost is outside what libsodium's Argon2id accepts (limits in the payload).
    case invalidCost(String)
    /// libsodium could not initialise (no usable random source).
    case unavailable
    /// Hashing failed (libsodium could not allocate the configured memory).
    case hashingFailed
    /// The hashing pool's queue is full: answer 503 with `Retry-After`.
    case overloaded
    /// The waiting task was cancelled before its work started.
    case cancelled
}
