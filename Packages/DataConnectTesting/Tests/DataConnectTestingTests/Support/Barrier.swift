/// Holds tasks until all of them arrived, so concurrent test steps interleave in a known order.
///
/// A task that fails calls ``breakDown()`` instead of arriving, which releases every waiter now and later, so
/// one side's failure ends the test instead of hanging the other side.
actor Barrier {
    private let parties: Int
    private var arrived = 0
    private var broken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) {
        self.parties = parties
    }

    /// Waits until `parties` tasks arrived (or the barrier broke down).
    func arrive() async {
        arrived += 1
        if arrived >= parties || broken {
            release()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Releases every waiter, now and later.
    func breakDown() {
        broken = true
        release()
    }

    private func release() {
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}
