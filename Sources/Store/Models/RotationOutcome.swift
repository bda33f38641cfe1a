/// What `SessionStore.rotate` decided.
public enum RotationOutcome: Sendable, Equatable {
    /// The presented counter was the live one: it is spent; issue a token for `counter` (= session.counter).
    case rotated(Session, counter: Int64)
    /// The presented counter is the parent of the live one, within the grace window: re-issue the token for
    /// the live `counter` (racing clients converge). Nothing changed.
    case converged(Session, counter: Int64)
    /// A spent token was presented outside the grace window: the session is now revoked.
    case reuseDetected(sessionID: String, userID: String)
    /// Unknown, revoked or expired session, disabled user, or a counter from the future. Nothing changed.
    case invalid
}
