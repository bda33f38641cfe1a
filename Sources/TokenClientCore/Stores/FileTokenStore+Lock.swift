#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileTokenStore {
    /// Takes the exclusive lock on `<file>.lock`, waiting up to ``lockTimeout`` seconds for its holder.
    ///
    /// The lock file is opened with `O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW`, mode 0600 (a symbolic link there
    /// is refused), and locked with `flock(LOCK_EX | LOCK_NB)`, tried again every 10 ms. `flock` locks belong to an
    /// open file description, so the lock excludes other processes and other stores on the same file in this
    /// process alike, and the system drops it when a holder dies. Releasing unlocks and closes the file.
    /// - Throws: ``TokenClientError/storage(_:)`` when the lock file cannot be opened or locked, or the lock is not
    ///   free within ``lockTimeout``; `CancellationError` when the task is cancelled while waiting.
    public func lock() async throws -> TokenStoreLock {
        let path = url.path + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw TokenClientError.storage("cannot open lock file \(path): errno \(errno)")
        }
        let deadline = ContinuousClock.now + .seconds(lockTimeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            var failure: TokenClientError?
            if code != EWOULDBLOCK && code != EINTR {
                failure = .storage("cannot lock \(path): errno \(code)")
            } else if ContinuousClock.now >= deadline {
                failure = .storage("waiting for the lock on \(path) timed out after \(lockTimeout) s")
            }
            if let failure {
                _ = close(descriptor)
                throw failure
            }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                _ = close(descriptor)
                throw error
            }
        }
        return TokenStoreLock {
            _ = flock(descriptor, LOCK_UN)
            _ = close(descriptor)
        }
    }
}
