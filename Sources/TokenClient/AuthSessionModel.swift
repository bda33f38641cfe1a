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
        /// Both streams, subscribed to by one task so that ``login(email:password:)`` can wait for them.
        @ObservationIgnored private let subscription: Task<Streams, Never>
        /// The tasks that consume the streams; cancelled by ``stop()`` and on release.
        @ObservationIgnored private var consumers: [Task<Void, Never>] = []

        private struct Streams: Sendable {
            var events: AsyncStream<SessionEvent>
            var states: AsyncStream<SessionState>
        }

        /// Creates a model that follows `session` until ``stop()`` or its release.
        public init(session: AuthSession) {
            self.session = session
            let snapshot = session.snapshot
            state = snapshot.state
            user = snapshot.user
            subscription = Task { Streams(events: await session.events(), states: await session.stateUpdates()) }
            consumers = [
                Task { [weak self, subscription] in
                    for await event in await subscription.value.events {
                        guard let self else { return }
                        self.lastEvent = event
                    }
                },
                Task { [weak self, subscription] in
                    for await state in await subscription.value.states {
                        guard let self else { return }
                        self.apply(state)
                    }
                },
            ]
        }

        deinit {
            for consumer in consumers { consumer.cancel() }
        }

        /// Stops following the session; the properties keep their last values.
        public func stop() {
            for consumer in consumers { consumer.cancel() }
            consumers = []
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
