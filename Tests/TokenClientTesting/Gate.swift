/// Holds requests until the test opens it, and lets the test wait until one has arrived.
public actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrivals = 0
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Called by the fake server: records the arrival, then suspends until ``open()``.
    public func pass() async {
        arrivals += 1
        let ready = arrivalWaiters.filter { $0.count <= arrivals }
        arrivalWaiters.removeAll { $0.count <= arrivals }
        for waiter in ready { waiter.continuation.resume() }
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Suspends until `count` requests have reached the gate.
    public func waitForArrivals(_ count: Int) async {
        if arrivals >= count { return }
        await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
    }

    public func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}
