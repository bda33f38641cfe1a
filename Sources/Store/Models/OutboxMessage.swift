#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A message to queue in the outbox (`outbox`, the one durable queue of outbound work; schema 9).
public struct OutboxMessage: Sendable, Equatable {
    /// A random id (lowercase UUID).
    public var id: String
    /// The template kind (`verification`, `password_reset`, …, `test`), for logs, metrics and `tokenvend email outbox`.
    public var kind: String
    /// The envelope recipient (an address, no display name).
    public var recipient: String
    /// The RFC 5322 message, sealed by the caller (the store never sees a code in the clear).
    public var body: [UInt8]
    /// When it was queued; the sender gives up 24 hours later.
    public var createdAt: Date

    /// Creates a message to queue; it is due at once.
    public init(id: String, kind: String, recipient: String, body: [UInt8], createdAt: Date) {
        self.id = id
        self.kind = kind
        self.recipient = recipient
        self.body = body
        self.createdAt = createdAt
    }
}

/// A row a sender claimed (`EmailStoring.claimOutbox`).
public struct OutboxEntry: Sendable, Equatable {
    /// The row id.
    public var id: String
    /// The template kind.
    public var kind: String
    /// The envelope recipient.
    public var recipient: String
    /// The sealed message.
    public var body: [UInt8]
    /// Failed attempts before this one.
    public var attempts: Int
    /// When it was queued.
    public var createdAt: Date

    /// Creates a claimed row.
    public init(id: String, kind: String, recipient: String, body: [UInt8], attempts: Int, createdAt: Date) {
        self.id = id
        self.kind = kind
        self.recipient = recipient
        self.body = body
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// A row as `tokenvend email outbox` shows it: never its body.
public struct OutboxSummary: Sendable, Equatable {
    /// The row id.
    public var id: String
    /// The template kind.
    public var kind: String
    /// The envelope recipient.
    public var recipient: String
    /// Failed attempts so far.
    public var attempts: Int
    /// When it was queued.
    public var createdAt: Date
    /// When it is due next (pending rows).
    public var nextAttemptAt: Date
    /// Until when a sender holds it, or nil.
    public var claimedUntil: Date?
    /// When the sender gave up, or nil while it is pending.
    public var failedAt: Date?
    /// The last failure's reason, or nil.
    public var lastError: String?

    /// Creates a summary.
    public init(
        id: String, kind: String, recipient: String, attempts: Int, createdAt: Date, nextAttemptAt: Date,
        claimedUntil: Date?, failedAt: Date?, lastError: String?
    ) {
        self.id = id
        self.kind = kind
        self.recipient = recipient
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.claimedUntil = claimedUntil
        self.failedAt = failedAt
        self.lastError = lastError
    }
}
