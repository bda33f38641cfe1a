@testable import TokenService

/// An in-process Moss upstream that plays scripted outcomes, counts calls, and can hold every call at a gate
/// until the test opens it.
actor FakeUpstreamScripted: MossUpstream {
    private var outcomes: [Result<MossProjectToken, MossError>]
    private var gated: Bool
    private var held: [CheckedContinuation<Void, Never>] = []
    /// Calls started so far.
    private(set) var calls = 0

    /// - Parameters:
    ///   - outcomes: returned in order; the last one repeats.
    ///   - gated: when true, every call waits for ``open()``.
    init(_ outcomes: [Result<MossProjectToken, MossError>], gated: Bool = false) {
        precondition(!outcomes.isEmpty)
        self.outcomes = outcomes
        self.gated = gated
    }

    /// One outcome for every call.
    init(always outcome: Result<MossProjectToken, MossError>, gated: Bool = false) {
        self.init([outcome], gated: gated)
    }

    func fetchProjectToken() async throws(MossError) -> MossProjectToken {
        calls += 1
        let outcome = outcomes.count > 1 ? outcomes.removeFirst() : outcomes[0]
        if gated { await withCheckedContinuation { held.append($0) } }
        return try outcome.get()
    }

    /// Releases held calls and lets later calls through.
    func open() {
        gated = false
        for continuation in held { continuation.resume() }
        held.removeAll()
    }

    /// Holds later calls again.
    func close() {
        gated = true
    }
}
