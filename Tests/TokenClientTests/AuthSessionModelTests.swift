#if canImport(Observation)
    import AuthAPI
    import Foundation
    import Observation
    import Testing
    @testable import TokenClient
    @testable import TokenClientCore
    import TokenClientTesting

    @Suite("AuthSessionModel", .timeLimit(.minutes(1)))
    @MainActor
    struct AuthSessionModelTests {
        let store = InMemoryTokenStore()
        let fixture: SessionFixture
        var clock: TestClock { fixture.clock }
        var server: FakeAuthServer { fixture.server }
        var session: AuthSession { fixture.session }

        init() {
            fixture = SessionFixture(store: store)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a model made for a signed-out session says signed out, with no user and no event")
        func startsSignedOut() {
            let model = AuthSessionModel(session: session)
            #expect(model.state == .signedOut)
            #expect(model.user == nil)
            #expect(model.lastEvent == nil)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a model made for a restored session says signed in with its user before any update arrives")
        func startsFromTheSnapshot() throws {
            store.save(
                StoredTokens(
                    accessToken: "access-0", refreshToken: "refresh-0",
                    accessTokenExpiresAt: clock.now.addingTimeInterval(900), user: FakeAuthServer.user))
            let restored = AuthSession(
                baseURL: try #require(URL(string: "https://api.example.test/")), transport: server, store: store,
                now: clock.closure)
            let model = AuthSessionModel(session: restored)
            #expect(model.state == .signedIn(FakeAuthServer.user))
            #expect(model.user == FakeAuthServer.user)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("after a login the model says signed in with the user, and the last event is the sign-in")
        func loginSignsTheModelIn() async throws {
            let model = AuthSessionModel(session: session)
            let user = try await model.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            #expect(user == FakeAuthServer.user)
            await until(model) { $0.state == .signedIn(FakeAuthServer.user) && $0.lastEvent != nil }
            #expect(model.user == FakeAuthServer.user)
            #expect(model.lastEvent == .signedIn(FakeAuthServer.user))
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("after a logout the model says signed out, with no user, and the last event is a sign-out by the user")
        func logoutSignsTheModelOut() async throws {
            let model = AuthSessionModel(session: session)
            try await model.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            await until(model) { $0.state == .signedIn(FakeAuthServer.user) }
            try await model.logout(scope: .local)
            await until(model) { $0.state == .signedOut && $0.lastEvent == .signedOut(reason: .userAction) }
            #expect(model.user == nil)
            #expect(server.count("/auth/logout") == 1)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a login straight on the session reaches the model too")
        func followsTheSession() async throws {
            let model = AuthSessionModel(session: session)
            try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            await until(model) { $0.state == .signedIn(FakeAuthServer.user) }
            #expect(model.user == FakeAuthServer.user)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a stopped model keeps its last values while a model still following sees the sign-in")
        func stopEndsTheUpdates() async throws {
            let stopped = AuthSessionModel(session: session)
            stopped.stop()
            let following = AuthSessionModel(session: session)
            try await following.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            await until(following) { $0.state == .signedIn(FakeAuthServer.user) && $0.lastEvent != nil }
            #expect(stopped.state == .signedOut)
            #expect(stopped.user == nil)
            #expect(stopped.lastEvent == nil)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a model stopped before its tasks start never subscribes, though the session signs in before they run")
        func stopBeforeTheSubscriptionStarts() async throws {
            let stopped = AuthSessionModel(session: session)
            // Nothing has suspended since the model was made, so its main-actor tasks have not started yet.
            stopped.stop()
            // The order of the flaky run, forced: the session is signed in before the stopped model's tasks run. The
            // main actor is held until the sign-in has finished, so they can only start afterwards.
            let signIn = holdingTheMainActor { [session] in
                try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            }
            _ = try signIn.get()
            #expect(await session.state == .signedIn(FakeAuthServer.user))
            for consumer in stopped.consumers { await consumer.value }
            #expect(await stopped.subscription.value == nil)
            #expect(stopped.state == .signedOut)
            #expect(stopped.user == nil)
            #expect(stopped.lastEvent == nil)
            #expect(await session.observers.isEmpty)
            #expect(await session.eventObservers.isEmpty)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a model stopped after it subscribed ignores what the session publishes afterwards")
        func stopAfterTheSubscription() async throws {
            let stopped = AuthSessionModel(session: session)
            #expect(await stopped.subscription.value != nil)
            stopped.stop()
            try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            for consumer in stopped.consumers { await consumer.value }
            #expect(stopped.state == .signedOut)
            #expect(stopped.user == nil)
            #expect(stopped.lastEvent == nil)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test("a model nobody holds is released, though its session lives on and keeps publishing")
        func releasedWithoutTheSession() async throws {
            var model: AuthSessionModel? = AuthSessionModel(session: session)
            weak let released = model
            try await model?.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
            model = nil
            #expect(released == nil)
            try await session.logout(scope: .local)
            #expect(await session.state == .signedOut)
        }

        /// Runs `operation` on another thread while the calling thread (here the main actor) waits for it, so no
        /// main-actor task can run in between; its result.
        private nonisolated func holdingTheMainActor(
            _ operation: @escaping @Sendable () async throws -> Void
        ) -> Result<Void, any Error> {
            let finished = DispatchSemaphore(value: 0)
            let result = Locked<Result<Void, any Error>>(.success(()))
            Task.detached {
                do {
                    try await operation()
                } catch {
                    result.withLock { $0 = .failure(error) }
                }
                finished.signal()
            }
            finished.wait()
            return result.withLock { $0 }
        }

        /// Waits until `condition` holds for `model`, waking on each change of a property it reads (no polling,
        /// no sleeps); the suite's time limit ends a wait that never comes true.
        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        private func until(
            _ model: AuthSessionModel, _ condition: @escaping @MainActor (AuthSessionModel) -> Bool
        ) async {
            while !condition(model) {
                await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
                    withObservationTracking {
                        _ = condition(model)
                    } onChange: {
                        changed.resume()
                    }
                }
            }
        }
    }
#endif
