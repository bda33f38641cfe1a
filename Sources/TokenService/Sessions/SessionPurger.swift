import Dispatch
import FoundationEssentials
import Logging
import Store
import Synchronization

/// Deletes sessions that can no longer be used, in the background, in small batches, prunes the shared
/// rate-limit counters whose windows have ended (when the store has them), forgets the used ID tokens
/// (`POST /auth/idtoken`'s replay guard) and the server-issued nonces (`POST /auth/nonce`) that have expired
/// (when given the identity store), and deletes the
/// expired browser sign-in flows and the one-time codes past their retention (when given the flow store), the
/// expired integrity challenges (`POST /integrity/challenge`, when given the integrity store), the expired passkey
/// challenges (`POST /auth/passkeys/…/options`, when given the passkey store) and the DPoP proof ids past their
/// window (when the store keeps them: PostgreSQL).
///
/// Every `interval` (default 10 min; the first run 1 min after start) it deletes sessions that were revoked,
/// or whose refresh token expired, more than `retention` ago (default 2 days), at most `batchSize` rows
/// (default 500) per write transaction, pausing `pause` (default 50 ms) between batches so that logins and
/// refreshes waiting for the store go first. A run ends at the first batch short of `batchSize`.
///
/// Why keep ended sessions for `retention` at all: refresh-token reuse detection needs only *live* rows (a
/// token of a revoked or deleted session is refused alike), but an access token keeps working until its own
/// `exp` (at most `accessToken.ttlSeconds` ≤ 1 day, plus leeway) when its session merely stopped being
/// refreshable; two days outlast that, and leave the rows of a "reuse detected" incident to inspect.
///
/// Several instances on one PostgreSQL database each run their purger; the batches are plain deletes, so two
/// runs at once only share the work.
///
/// Thread-safety: a run is one `Task` of async store calls (each bounded by the backend's deadlines); the
/// Dispatch timer only starts it. `stop()` may be called from anywhere and waits for a running batch.
/// `@unchecked Sendable`: the `timer` is a Dispatch source (thread-safe; resumed once and cancelled once, as
/// `state` records under its `Mutex`), everything else is immutable or in `state`.
final class SessionPurger: @unchecked Sendable {
    /// Timing and sizes; see the type's note for the defaults.
    struct Configuration: Sendable {
        var firstRun: Duration = .seconds(60)
        var interval: Duration = .seconds(600)
        var retention: Duration = .seconds(2 * 86_400)
        var batchSize: Int = 500
        var pause: Duration = .milliseconds(50)
        /// How long given-up outbox rows are kept for `tokenvend email outbox`. Default: 7 days.
        var failedEmailRetention: Duration = .seconds(7 * 86_400)
        /// How long shared rate-limit counters are kept after their window ended. Default: 1 h (the service sets
        /// twice its longest window).
        var counterRetention: Duration = .seconds(3_600)
    }

    let configuration: Configuration
    private let sessions: any SessionStoring
    private let rateLimits: (any RateLimitCounters)?
    private let identities: (any IdentityStoring)?
    private let oauth: (any OAuthFlowStoring)?
    private let email: (any EmailStoring)?
    private let integrity: (any IntegrityStoring)?
    private let dpopProofs: (any DPoPProofStoring)?
    private let passkeys: (any PasskeyStoring)?
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let queue = DispatchQueue(label: "tokenvend.sessions.purge")
    private let state = Mutex<State>(State())
    private let timer: any DispatchSourceTimer

    private struct State {
        var started = false
        var stopped = false
        /// The run under way, if any.
        var running: Task<Int, Never>?
    }

    init(
        sessions: any SessionStoring, rateLimits: (any RateLimitCounters)? = nil,
        identities: (any IdentityStoring)? = nil, oauth: (any OAuthFlowStoring)? = nil,
        email: (any EmailStoring)? = nil, integrity: (any IntegrityStoring)? = nil,
        dpopProofs: (any DPoPProofStoring)? = nil, passkeys: (any PasskeyStoring)? = nil,
        configuration: Configuration = Configuration(), logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.sessions = sessions
        self.rateLimits = rateLimits
        self.identities = identities
        self.oauth = oauth
        self.email = email
        self.integrity = integrity
        self.dpopProofs = dpopProofs
        self.passkeys = passkeys
        self.configuration = configuration
        self.logger = logger
        self.now = now
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    deinit {
        // Dispatch traps when a suspended source is released: a purger never started is resumed, cancelled.
        let resume = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        timer.cancel()
        if resume { timer.resume() }
    }

    /// Schedules the periodic runs (once; later calls do nothing).
    func start() {
        let startable = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            return true
        }
        guard startable else { return }
        timer.schedule(
            deadline: .now() + Self.interval(configuration.firstRun), repeating: Self.interval(configuration.interval))
        timer.setEventHandler { [weak self] in _ = self?.begin() }
        timer.resume()
    }

    /// Cancels the schedule and waits for a running batch (call before closing the store).
    func stop() async {
        let running = state.withLock { state -> Task<Int, Never>? in
            state.stopped = true
            return state.running
        }
        timer.cancel()
        _ = await running?.value
    }

    /// Runs one purge now (every due batch) and returns how many sessions it deleted; 0 when a run is already
    /// under way or the purger is stopped.
    func purgeNow() async -> Int {
        guard let task = begin() else { return 0 }
        return await task.value
    }

    /// Starts a run unless one is under way or the purger is stopped (a timer tick during a run is a no-op).
    private func begin() -> Task<Int, Never>? {
        state.withLock { state -> Task<Int, Never>? in
            guard !state.stopped, state.running == nil else { return nil }
            let task = Task { await self.run() }
            state.running = task
            return task
        }
    }

    /// Batches until a short one, a failure, or `stop()`; then prunes the counters, the used ID tokens, the
    /// expired nonces, integrity and passkey challenges and DPoP proof ids, and the browser sign-in flows and codes.
    private func run() async -> Int {
        let retention = configuration.retention.components.seconds
        let cutoff = now().addingTimeInterval(-Double(retention))
        var total = 0
        while !isStopped {
            let deleted: Int
            do {
                deleted = try await sessions.purgeBatch(endedBefore: cutoff, limit: configuration.batchSize)
            } catch {
                logger.warning("session purge failed; retrying at the next run", metadata: ["error": "\(error)"])
                break
            }
            total += deleted
            guard deleted >= configuration.batchSize else { break }
            try? await Task.sleep(for: configuration.pause)
        }
        await pruneCounters()
        await pruneTokenUses()
        await pruneFlows()
        await pruneEmail()
        await pruneChallenges()
        await pruneProofs()
        await prunePasskeyChallenges()
        state.withLock { $0.running = nil }
        if total > 0 { logger.info("purged ended sessions", metadata: ["sessions.deleted": "\(total)"]) }
        return total
    }

    private func pruneCounters() async {
        guard let rateLimits, !isStopped else { return }
        let cutoff = now().addingTimeInterval(-Double(configuration.counterRetention.components.seconds))
        do {
            let pruned = try await rateLimits.prune(endedBefore: cutoff)
            if pruned > 0 { logger.debug("pruned rate-limit counters", metadata: ["counters.deleted": "\(pruned)"]) }
        } catch {
            logger.warning("rate-limit counter prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    /// A used ID token is remembered until its `exp`; after that its own expiry refuses it. Expired nonces go too.
    private func pruneTokenUses() async {
        guard let identities, !isStopped else { return }
        do {
            let pruned = try await identities.pruneUses(expiredBy: now())
            if pruned > 0 { logger.debug("pruned used ID tokens", metadata: ["idTokens.deleted": "\(pruned)"]) }
        } catch {
            logger.warning("used ID token prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
        // A server-issued nonce (`POST /auth/nonce`) is useless once expired.
        do {
            let pruned = try await identities.pruneNonces(expiredBy: now())
            if pruned > 0 { logger.debug("pruned expired nonces", metadata: ["nonces.deleted": "\(pruned)"]) }
        } catch {
            logger.warning("expired nonce prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    /// A flow is useless once expired; a code is kept `OAuthCodes.retention` past its expiry to recognise a replay.
    private func pruneFlows() async {
        guard let oauth, !isStopped else { return }
        do {
            let pruned = try await oauth.pruneFlows(now: now())
            if pruned > 0 {
                logger.debug("pruned browser sign-in flows and codes", metadata: ["oauth.deleted": "\(pruned)"])
            }
        } catch {
            logger.warning(
                "browser sign-in flow prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    /// Expired email codes are useless; given-up outbox rows are kept `failedEmailRetention` for the operator.
    private func pruneEmail() async {
        guard let email, !isStopped else { return }
        let retention = Double(configuration.failedEmailRetention.components.seconds)
        do {
            let pruned = try await email.pruneEmail(
                expiredBy: now(), failedBefore: now().addingTimeInterval(-retention))
            if pruned > 0 {
                logger.debug("pruned email codes and outbox rows", metadata: ["email.deleted": "\(pruned)"])
            }
        } catch {
            logger.warning("email prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    /// An integrity challenge (`POST /integrity/challenge`) is useless once expired.
    private func pruneChallenges() async {
        guard let integrity, !isStopped else { return }
        do {
            let pruned = try await integrity.pruneChallenges(expiredBy: now())
            if pruned > 0 {
                logger.debug("pruned expired integrity challenges", metadata: ["challenges.deleted": "\(pruned)"])
            }
        } catch {
            logger.warning(
                "integrity challenge prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    /// A DPoP proof id is remembered until its window ends; after that the proof's own `iat` refuses it.
    private func pruneProofs() async {
        guard let dpopProofs, !isStopped else { return }
        do {
            let pruned = try await dpopProofs.pruneProofs(expiredBy: now())
            if pruned > 0 {
                logger.debug("pruned expired DPoP proof ids", metadata: ["dpopProofs.deleted": "\(pruned)"])
            }
        } catch {
            logger.warning("DPoP proof prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    /// A passkey challenge (`POST /auth/passkeys/…/options`) is useless once expired.
    private func prunePasskeyChallenges() async {
        guard let passkeys, !isStopped else { return }
        do {
            let pruned = try await passkeys.pruneChallenges(expiredBy: now())
            if pruned > 0 {
                logger.debug("pruned expired passkey challenges", metadata: ["passkeyChallenges.deleted": "\(pruned)"])
            }
        } catch {
            logger.warning("passkey challenge prune failed; retrying at the next run", metadata: ["error": "\(error)"])
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
