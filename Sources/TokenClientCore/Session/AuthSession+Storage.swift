#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store seen from the session: a locked store, saves that failed, pairs other processes wrote.
extension AuthSession {
    /// Reads the store again now: leaves ``SessionState/locked`` when it can be read, adopts a pair another
    /// process wrote, and writes tokens whose save failed. Call it when the app returns to the foreground, or on
    /// `UIApplication.protectedDataDidBecomeAvailableNotification`; the session also does it by itself.
    public func reload() async {
        if state == .locked {
            _ = tryUnlock()
            return
        }
        retryPendingSave()
        if let held = tokens, pendingSave == nil, refreshInFlight == nil { _ = adoptNewerPair(than: held) }
    }

    /// What every call that needs the tokens does first: leave the locked state if the store can be read now
    /// (else throw ``TokenClientError/storageLocked``), write tokens whose save failed, and send again, in the
    /// background and at most every 30 s, logouts the server missed.
    func prepare() throws {
        if state == .locked, !tryUnlock() { throw TokenClientError.storageLocked }
        retryPendingSave()
        if !pendingLogouts.isEmpty, lastPendingLogoutAttempt.map({ now().timeIntervalSince($0) >= 30 }) ?? true {
            lastPendingLogoutAttempt = now()
            Task { await self.retryPendingLogouts() }
        }
    }

    /// Reads a locked store once; on success adopts what it holds and returns true. Never clears it.
    func tryUnlock() -> Bool {
        guard state == .locked else { return true }
        let loaded: StoredTokens?
        do {
            loaded = try store.load()
        } catch {
            lastStorageError = TokenClientError.storage(from: error)
            return false
        }
        lastStorageError = nil
        guard let loaded else {
            publish(.signedOut)
            return true
        }
        hold(loaded)
        publish(.signedIn(loaded.user))
        emit(.signedIn(loaded.user))
        return true
    }

    /// Writes the tokens a failed save left behind, if they are still the session's.
    func retryPendingSave() {
        guard let pending = pendingSave else { return }
        guard pending == tokens else {
            pendingSave = nil
            return
        }
        save(pending)
    }

    /// Tries the store every `interval` seconds until it can be read or the session is released.
    nonisolated static func retryWhileLocked(_ session: AuthSession, every interval: TimeInterval) {
        Task { [weak session] in
            while true {
                let bounded = interval.isFinite ? min(max(0.01, interval), 86_400) : 86_400
                try? await Task.sleep(nanoseconds: UInt64(bounded * 1_000_000_000))
                guard let session else { return }
                if await session.lockedRetryFinished() { return }
            }
        }
    }

    /// One background attempt; true when the session is no longer locked.
    private func lockedRetryFinished() -> Bool {
        guard tryUnlock() else { return false }
        lockedRetryRunning = false
        return true
    }
}
