/// What `SessionStoring.rotateReadingUser` answers: the rotation's outcome and the session's user, read in the
/// same transaction, so a refresh needs no separate user lookup.
public struct RotationResult: Sendable, Equatable {
    /// The decision, as `SessionStoring.rotate` answers it.
    public var outcome: RotationOutcome
    /// The session's user as read inside the rotation's transaction, for `.rotated` and `.converged`; nil for the
    /// other outcomes, and when the backend did not read it (the default implementation): then look it up.
    public var user: User?

    /// Creates a result.
    public init(outcome: RotationOutcome, user: User?) {
        self.outcome = outcome
        self.user = user
    }
}
