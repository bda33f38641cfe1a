/// The answer of a read that must not wait (on the network, a pool or a lock): the value, or word that only
/// the `async` form can answer.
///
/// The service's fast paths (`GET /auth/me`, `POST /stream-token`) run on an HTTP event loop; they take the
/// value when the store has it at hand (SQLite: a read on a reader connection, or the status cache;
/// PostgreSQL: the status cache only) and otherwise suspend in a `Task` with the `async` form.
public enum ImmediateRead<Value: Sendable>: Sendable {
    /// The answer, read without waiting.
    case value(Value)
    /// Not at hand; call the `async` form.
    case mustWait
}
