/// Held by a session while it reads the store, refreshes and writes the new pair, so that two processes sharing
/// one store (an app and its extension, the CLI) never both present the same refresh token.
///
/// Released by ``release()`` or, at the latest, when the last reference goes away.
public final class TokenStoreLock: Sendable {
    private let releaser: Locked<(@Sendable () -> Void)?>

    /// A lock whose ``release()`` runs `release` once.
    public init(release: @escaping @Sendable () -> Void) {
        releaser = Locked(release)
    }

    /// A lock that holds nothing: for stores only one process uses.
    public static var none: TokenStoreLock { TokenStoreLock {} }

    /// Releases the lock; later calls do nothing.
    public func release() {
        let release = releaser.withLock { value in
            defer { value = nil }
            return value
        }
        release?()
    }

    deinit {
        release()
    }
}
