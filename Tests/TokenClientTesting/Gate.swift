/// Holds requests until the test opens it, and lets the test wait until one has arrived.
public actor Gate {
    private var isOpen = false
    private var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextTicket: UInt64 = 0
    private var cancelled: Set<UInt64> = []
    private var arrivals = 0
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Called by the fake server: records the arrival, then suspends until ``open()``, or gives up when the calling
    /// task is cancelled, as `URLSession` does: a request held here then throws `CancellationError`.
    public func enter() async throws {
        guard let ticket = arrive() else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if cancelled.remove(ticket) != nil {
                    continuation.resume()
                } else {
                    waiting[ticket] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel(ticket) }
        }
        try Task.checkCancellation()
    }

    /// Records an arrival and wakes the tests waiting for it; the ticket to wait under, or nil when the gate is open.
    private func arrive() -> UInt64? {
        arrivals += 1
        let ready = arrivalWaiters.filter { $0.count <= arrivals }
        arrivalWaiters.removeAll { $0.count <= arrivals }
        for waiter in ready { waiter.continuation.resume() }
        if isOpen { return nil }
        nextTicket += 1
        return nextTicket
    }

    private func cancel(_ ticket: UInt64) {
        if let continuation = waiting.removeValue(forKey: ticket) {
            continuation.resume()
        } else {
            cancelled.insert(ticket)
        }
    }

    /// Suspends until `count` requests have reached the gate.
    public func waitForArrivals(_ count: Int) async {
        if arrivals >= count { return }
        await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
    }

    public func open() {
        isOpen = true
        for continuation in waiting.values { continuation.resume() }
        waiting.removeAll()
    }
}
