public import DPoP
public import Prometheus

/// DPoP's metric: `tokenvend_dpop_proofs_total{result,reason}`, one count per proof decided (accepted, or refused
/// with the first failed check), and per request that needed a proof and had none. Every label comes from the
/// closed set ``Reason``; all series exist from start-up.
public final class DPoPMetrics: Sendable {
    /// The `reason` label: `none` for an accepted proof, a `DPoPProofFailure` raw value, or a check of the service.
    public enum Reason: Sendable, Hashable {
        case none
        /// A check of the proof alone (`DPoPProofVerifier`).
        case proof(DPoPProofFailure)
        /// No `DPoP` header where one is needed (a bound session, `dpop.mode` required).
        case missing
        /// Two `DPoP` header fields.
        case multiple
        /// No nonce, or not the current or previous one, while `dpop.requireNonce` is on.
        case nonce
        /// The key and `jti` were accepted before within the window (on any instance sharing the store).
        case replayed
        /// A valid proof by another key than the session's (or the integrity token's) binding.
        case keyMismatch
        /// A bound access token sent as `Bearer` (or by cookie), or an unbound one with the `DPoP` scheme.
        case scheme
        /// The in-memory replay cache is full (`dpop.maxTrackedProofs`).
        case capacity

        /// The label value.
        public var label: String {
            switch self {
            case .none: "none"
            case .proof(let failure): failure.rawValue
            case .missing: "missing"
            case .multiple: "multiple"
            case .nonce: "nonce"
            case .replayed: "replayed"
            case .keyMismatch: "key_mismatch"
            case .scheme: "scheme"
            case .capacity: "capacity"
            }
        }

        /// Every value, in the order OPERATIONS.md lists them.
        public static var allCases: [Reason] {
            [.none] + DPoPProofFailure.allCases.map(Reason.proof)
                + [.missing, .multiple, .nonce, .replayed, .keyMismatch, .scheme, .capacity]
        }
    }

    private static let name = "tokenvend_dpop_proofs_total"
    private let registry: PrometheusCollectorRegistry
    private let counters: [String: Counter]

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var counters: [String: Counter] = [:]
        for reason in Reason.allCases {
            counters[reason.label] = registry.makeCounter(
                name: Self.name,
                labels: [("result", reason == .none ? "accepted" : "rejected"), ("reason", reason.label)],
                help: "DPoP proofs, by result (accepted or rejected) and the first failed check.")
        }
        self.counters = counters
    }

    /// Counts an accepted proof.
    public func accepted() {
        counters["none"]?.increment()
    }

    /// Counts a refusal for `reason`.
    public func rejected(_ reason: Reason) {
        counters[reason.label]?.increment()
    }

    /// The current value of one series; renders the registry (tests).
    public func value(_ reason: Reason) -> Double {
        let result = reason == .none ? "accepted" : "rejected"
        return PrometheusSample.value(in: registry, #"\#(Self.name){result="\#(result)",reason="\#(reason.label)"}"#)
    }
}
