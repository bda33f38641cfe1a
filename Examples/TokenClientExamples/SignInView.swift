#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI
    import TokenClient

    // README: sign-in-view
    /// The app's root: the sign-in form while signed out, the app once signed in. One model for the app's lifetime.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    struct RootView: View {
        @State private var model: AuthSessionModel

        init(session: AuthSession) {
            _model = State(initialValue: AuthSessionModel(session: session))
        }

        var body: some View {
            switch model.state {
            case .signedOut:
                SignInView(model: model)
            case .locked:
                ProgressView("Unlock your device to continue")
            case .signedIn, .refreshing:
                VStack {
                    Text("Signed in as \(model.user?.email ?? "you")")
                    Button("Sign out") { Task { try? await model.logout() } }  // signed out here even if this throws
                }
            }
        }
    }

    /// Email and password; the session publishes the sign-in, and `RootView` moves on.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    struct SignInView: View {
        let model: AuthSessionModel
        @State private var email = ""
        @State private var password = ""
        @State private var failure: String?
        @State private var signingIn = false

        var body: some View {
            Form {
                if let notice = SignInMessages.notice(after: model.lastEvent) { Text(notice) }
                TextField("Email", text: $email)
                    .textContentType(.username)
                SecureField("Password", text: $password)
                    .textContentType(.password)
                if let failure { Text(failure).foregroundStyle(.red) }
                Button("Sign in") { Task { await signIn() } }
                    .disabled(signingIn || email.isEmpty || password.isEmpty)
            }
        }

        private func signIn() async {
            signingIn = true
            defer { signingIn = false }
            do {
                try await model.login(email: email, password: password)
                password = ""
                failure = nil
            } catch {
                failure = SignInMessages.failure(error)
            }
        }
    }
// README-END
#endif
