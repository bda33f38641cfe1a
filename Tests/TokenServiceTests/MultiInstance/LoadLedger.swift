import Foundation
import Synchronization

/// What client loops against two instances saw, shared between their tasks.
final class LoadLedger: Sendable {
    /// One refresh chain: the login's token, then every acknowledged successor.
    struct Chain {
        var instance: String
        var tokens: [String]
        var access: String
    }

    /// One request's outcome, for the "never hangs" and "503 with Retry-After" checks.
    struct Outcome {
        var instance: String
        var path: String
        var status: Int
        var retryAfter: String?
        var duration: Duration
        var at: ContinuousClock.Instant
    }

    struct State {
        var chains: [Chain] = []
        /// Emails whose registration was answered 201, with the instance that answered.
        var registered: [(email: String, instance: String)] = []
        var outcomes: [Outcome] = []
        /// Requests that failed in a way the test does not allow (transport error on a live instance,
        /// unexpected status).
        var surprises: [String] = []
        /// Instances that were killed on purpose: their transport errors end their loops quietly.
        var killed: Set<String> = []
        var stopped = false
    }

    private let state = Mutex(State())

    func withLock<T: Sendable>(_ body: (inout State) -> T) -> T {
        state.withLock { body(&$0) }
    }

    /// True once the test stopped the load, or the test's task was cancelled (it failed, or ran out of time).
    var isStopped: Bool { Task.isCancelled || withLock { $0.stopped } }

    /// Records an answer.
    func record(_ client: InstanceClient, _ path: String, _ answer: InstanceClient.Answer) {
        let outcome = Outcome(
            instance: client.name, path: path, status: answer.status, retryAfter: answer.headers["retry-after"],
            duration: answer.duration, at: .now)
        withLock { $0.outcomes.append(outcome) }
    }

    /// Records a transport error; true when the loop should end (its instance was killed on purpose).
    func failed(_ client: InstanceClient, _ path: String, _ error: any Error) -> Bool {
        withLock {
            if $0.killed.contains(client.name) { return true }
            $0.surprises.append("\(client.name) \(path): \(error)")
            return true
        }
    }

    /// Refreshes chain `index` through `client` with its last acknowledged token until stopped; `allowed` are
    /// the statuses that may come back (the token is kept and presented again after a refusal).
    static func refreshLoop(_ client: InstanceClient, _ ledger: LoadLedger, _ index: Int, allowed: Set<Int>) async {
        while !ledger.isStopped {
            guard let token = ledger.withLock({ $0.chains[index].tokens.last }) else { return }
            do {
                let answer = try await client.refresh(token)
                ledger.record(client, "/auth/refresh", answer)
                if answer.status == 200, let next = answer.refreshToken, let access = answer.accessToken {
                    ledger.withLock {
                        $0.chains[index].tokens.append(next)
                        $0.chains[index].access = access
                    }
                } else if !allowed.contains(answer.status) {
                    ledger.withLock { $0.surprises.append("\(client.name) refresh answered \(answer.status)") }
                    return
                } else {
                    try? await Task.sleep(for: .milliseconds(20))
                }
            } catch {
                if ledger.failed(client, "/auth/refresh", error) { return }
            }
        }
    }

    /// Registers new users through `client` (each then logs in once) until stopped.
    static func registrationLoop(_ client: InstanceClient, _ ledger: LoadLedger, password: String, allowed: Set<Int>)
        async
    {
        var number = 0
        while !ledger.isStopped {
            number += 1
            let email = "load-\(client.name.lowercased())-\(number)-\(UUID().uuidString.prefix(6))@example.com"
            do {
                let answer = try await client.register(email, password)
                ledger.record(client, "/auth/register", answer)
                if answer.status == 201 {
                    ledger.withLock { $0.registered.append((email, client.name)) }
                    let login = try await client.login(email, password)
                    ledger.record(client, "/auth/login", login)
                    if login.status != 200 && !allowed.contains(login.status) {
                        ledger.withLock { $0.surprises.append("\(client.name) login answered \(login.status)") }
                        return
                    }
                } else if !allowed.contains(answer.status) {
                    ledger.withLock { $0.surprises.append("\(client.name) register answered \(answer.status)") }
                    return
                } else {
                    try? await Task.sleep(for: .milliseconds(20))
                }
            } catch {
                if ledger.failed(client, "/auth/register", error) { return }
            }
        }
    }
}
