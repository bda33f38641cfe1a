public import Prometheus
public import Store
public import WebAuthn

/// Passkeys' metric: `tokenvend_passkey_ceremonies_total{ceremony,result,reason}`, one count per registration,
/// sign-up or authentication decided (options calls are not ceremonies). Every label comes from a closed set; all
/// series exist from start-up.
public final class PasskeyMetrics: Sendable {
    /// The `reason` label: `none` for a success, a `PasskeyCheckFailure` raw value, or a check of the service.
    public enum Reason: Sendable, Hashable {
        case none
        /// A check of the relying party (`RelyingPartyVerifier`), or a challenge the store does not give back.
        case check(PasskeyCheckFailure)
        /// A body, base64url, client data JSON or CBOR that does not decode (answered 400).
        case malformed
        /// An assertion by a credential no account has.
        case unknownCredential
        /// A registration of a credential id some account has already.
        case duplicateCredential
        /// An assertion for a disabled account.
        case accountDisabled

        /// The label value.
        public var label: String {
            switch self {
            case .none: "none"
            case .check(let failure): failure.rawValue
            case .malformed: "malformed"
            case .unknownCredential: "unknown_credential"
            case .duplicateCredential: "duplicate_credential"
            case .accountDisabled: "account_disabled"
            }
        }

        /// Every value, in the order OPERATIONS.md lists them.
        public static var allCases: [Reason] {
            [.none] + PasskeyCheckFailure.allCases.map(Reason.check)
                + [.malformed, .unknownCredential, .duplicateCredential, .accountDisabled]
        }
    }

    private static let name = "tokenvend_passkey_ceremonies_total"
    private let registry: PrometheusCollectorRegistry
    private let counters: [String: Counter]

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var counters: [String: Counter] = [:]
        for ceremony in PasskeyChallenge.Ceremony.allCases {
            for reason in Reason.allCases {
                counters[Self.key(ceremony, reason)] = registry.makeCounter(
                    name: Self.name,
                    labels: [
                        ("ceremony", ceremony.rawValue), ("result", Self.result(reason)), ("reason", reason.label),
                    ],
                    help: "Passkey ceremonies (registration, signup, authentication), by result and the first failed "
                        + "check.")
            }
        }
        self.counters = counters
    }

    /// Counts a ceremony that succeeded.
    public func succeeded(_ ceremony: PasskeyChallenge.Ceremony) {
        counters[Self.key(ceremony, .none)]?.increment()
    }

    /// Counts a ceremony refused for `reason`.
    public func failed(_ ceremony: PasskeyChallenge.Ceremony, _ reason: Reason) {
        counters[Self.key(ceremony, reason)]?.increment()
    }

    /// The current value of one series; renders the registry (tests).
    public func value(_ ceremony: PasskeyChallenge.Ceremony, _ reason: Reason) -> Double {
        PrometheusSample.value(
            in: registry,
            #"\#(Self.name){ceremony="\#(ceremony.rawValue)",result="\#(Self.result(reason))",reason="\#(reason.label)"}"#
        )
    }

    private static func result(_ reason: Reason) -> String { reason == .none ? "success" : "failure" }

    private static func key(_ ceremony: PasskeyChallenge.Ceremony, _ reason: Reason) -> String {
        ceremony.rawValue + "/" + reason.label
    }
}
