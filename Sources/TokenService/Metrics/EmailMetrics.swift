import Atomics
public import Prometheus
public import Store

/// The email metrics: `tokenvend_email_messages_total{kind,result}` (what the outbox sender did with a message),
/// `tokenvend_email_codes_total{kind,result}` (codes issued and presented) and `tokenvend_email_outbox_pending`
/// (rows waiting for delivery, as the sender last counted them). Every series is made at start-up from closed sets,
/// so the label values never come from a request.
public final class EmailMetrics: Sendable {
    /// The `result` of `tokenvend_email_messages_total`.
    public enum MessageResult: String, Sendable, CaseIterable {
        /// Delivered (the row is deleted).
        case sent
        /// A transient failure: tried again later, with backoff.
        case retried
        /// Given up: a permanent failure, 24 hours of failures, or a body that no longer opens.
        case failed
    }

    /// The `result` of `tokenvend_email_codes_total`.
    public enum CodeResult: String, Sendable, CaseIterable {
        /// A code was made and its message queued.
        case issued
        /// A code was presented and accepted.
        case accepted
        /// A wrong code was presented for a live one.
        case rejected
        /// A wrong code was the last try: the code is deleted.
        case killed
        /// A code was presented where none is live (never issued, expired, used or killed).
        case missing
        /// A send was refused by the per-address limit (`email.sendsPerAddressPer…`).
        case limited
    }

    /// The kinds of message: the templates' and `test` (`tokenvend email send-test`).
    static let messageKinds = [
        "verification", "password_reset", "sign_in", "email_change", "email_changed_notice", "deletion", "test",
    ]

    private static let messagesName = "tokenvend_email_messages_total"
    private static let codesName = "tokenvend_email_codes_total"
    private let registry: PrometheusCollectorRegistry
    private let messages: [String: Counter]
    private let codes: [String: Counter]
    /// The last count of pending rows (`tokenvend_email_outbox_pending`).
    let pending: ManagedAtomic<Int>

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var messages: [String: Counter] = [:]
        for kind in Self.messageKinds {
            for result in MessageResult.allCases {
                messages[kind + "/" + result.rawValue] = registry.makeCounter(
                    name: Self.messagesName, labels: [("kind", kind), ("result", result.rawValue)],
                    help: "Email messages by kind and what the outbox sender did with them.")
            }
        }
        var codes: [String: Counter] = [:]
        for purpose in EmailCodePurpose.allCases {
            for result in CodeResult.allCases {
                codes[purpose.rawValue + "/" + result.rawValue] = registry.makeCounter(
                    name: Self.codesName, labels: [("kind", purpose.rawValue), ("result", result.rawValue)],
                    help: "Email codes by kind and result.")
            }
        }
        self.messages = messages
        self.codes = codes
        let gauge = registry.makeGauge(
            name: "tokenvend_email_outbox_pending", help: "Email messages waiting in the outbox for delivery.")
        let pending = ManagedAtomic<Int>(0)
        self.pending = pending
        self.gaugeSampler = { gauge.set(to: Double(pending.load(ordering: .relaxed))) }
    }

    /// Copies the pending count into its gauge (run when `/metrics` is rendered).
    let gaugeSampler: @Sendable () -> Void

    /// Counts one message of `kind` (a kind outside the closed set is not counted).
    public func message(_ kind: String, _ result: MessageResult) {
        messages[kind + "/" + result.rawValue]?.increment()
    }

    /// Counts one code event.
    public func code(_ purpose: EmailCodePurpose, _ result: CodeResult) {
        codes[purpose.rawValue + "/" + result.rawValue]?.increment()
    }

    /// The current value of one message series (tests).
    public func messageValue(_ kind: String, _ result: MessageResult) -> Double {
        PrometheusSample.value(in: registry, #"\#(Self.messagesName){kind="\#(kind)",result="\#(result.rawValue)"}"#)
    }

    /// The current value of one code series (tests).
    public func codeValue(_ purpose: EmailCodePurpose, _ result: CodeResult) -> Double {
        PrometheusSample.value(
            in: registry, #"\#(Self.codesName){kind="\#(purpose.rawValue)",result="\#(result.rawValue)"}"#)
    }
}
