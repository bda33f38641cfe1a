#if canImport(Observation)
    public import AuthAPI
    public import Observation

    /// An ``AuthSession`` as SwiftUI observes it: the session's state, user and last event, updated on the main
    /// actor as the session publishes them.
    ///
    /// The model subscribes to ``AuthSession/events()`` and ``AuthSession/stateUpdates()`` when it is made, and
    /// stops on ``stop()`` or when it is released. ``login(email:password:)`` and ``logout(scope:)`` forward to the
    /// session after that subscription is in place, so their events are never missed.
    ///
    /// ```swift
    /// @State private var model = AuthSessionModel(session: session)
    /// var body: some View {
    ///     if model.state.isSignedIn { HomeView() } else { SignInView(model: model) }
    /// }
    /// ```
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor @Observable
    public final class AuthSessionModel {
        /// The session's state, as last published; at first the session's ``AuthSession/snapshot``.
        public private(set) var state: SessionState
        /// The signed-in user, when known; `nil` when signed out or locked.
        public private(set) var user: User?
        /// The most recent event (a sign-in, a refresh, a sign-out with its reason…) since the model was made.
        public private(set) var lastEvent: SessionEvent?

        /// The session the model follows.
        @ObservationIgnored public let session: AuthSession
        /// Both streams, subscribed to by one task so that ``login(email:password:)`` can wait for them; `nil` when
        /// ``stop()`` came first (then the model never subscribes).
        @ObservationIgnored let subscription: Task<Streams?, Never>
        /// The tasks that consume the streams; cancelled by ``stop()`` and on release, kept so tests can wait for them.
        @ObservationIgnored private(set) var consumers: [Task<Void, Never>] = []

        struct Streams: Sendable {
            var events: AsyncStream<SessionEvent>
            var states: AsyncStream<SessionState>
        }

        /// Creates a model that follows `session` until ``stop()`` or its release.
        public init(session: AuthSession) {
            self.session = session
            let snapshot = session.snapshot
            state = snapshot.state
            user = snapshot.user
            // Every task below runs on the main actor, as stop() does, so "stopped" is decided there: the
            // subscription does not start after stop(), and a consumer drops what arrives after it (a stream made
            // just before stop() may already hold the session's current state, and a cancelled AsyncStream iterator
            // still hands out what it holds). A consumer keeps iterating once cancelled: its cancelled next() is what
            // ends the stream and unsubscribes it from the session.
            subscription = Task { @MainActor in
                guard !Task.isCancelled else { return nil }
                let events = await session.events()
                let states = await session.stateUpdates()
                return Streams(events: events, states: states)
            }
            consumers = [
                Task { @MainActor [weak self, subscription] in
                    guard let streams = await subscription.value else { return }
                    for await event in streams.events {
                        guard !Task.isCancelled, let self else { continue }
                        self.lastEvent = event
                    }
                },
                Task { @MainActor [weak self, subscription] in
                    guard let streams = await subscription.value else { return }
                    for await state in streams.states {
                        guard !Task.isCancelled, let self else { continue }
                        self.apply(state)
                    }
                },
            ]
        }

        deinit {
            subscription.cancel()
            for consumer in consumers { consumer.cancel() }
        }

        /// Stops following the session; the properties keep their last values, whatever the session publishes
        /// afterwards (even a state it published before the model had subscribed).
        public func stop() {
            subscription.cancel()
            for consumer in consumers { consumer.cancel() }
        }

        /// Signs in through ``AuthSession/login(email:password:)``.
        /// - Returns: the signed-in user.
        /// - Throws: what the session's `login` throws.
        @discardableResult
        public func login(email: String, password: String) async throws -> User {
            _ = await subscription.value
            return try await session.login(email: email, password: password)
        }

        /// Signs out through ``AuthSession/logout(scope:)``; for `.local` and `.global` the model shows
        /// ``SessionState/signedOut`` even when telling the server fails.
        /// - Throws: what the session's `logout` throws.
        public func logout(scope: LogoutScope = .local) async throws {
            _ = await subscription.value
            try await session.logout(scope: scope)
        }

        private func apply(_ new: SessionState) {
            state = new
            switch new {
            case .signedIn(let signedIn): user = signedIn
            case .signedOut, .locked: user = nil
            case .refreshing: break  // still the same user
            }
        }
    }
#endif
