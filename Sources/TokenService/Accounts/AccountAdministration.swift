import Dispatch
public import FoundationEssentials
import PasswordHash
import SQLiteStore
public import Store

/// The operator's view of accounts, behind `tokenvend users …`: it works on the same store as running servers
/// (SQLite: the same file, whose busy timeout queues the writes; PostgreSQL: the shared database), and applies
/// the same email and password rules. Every operation suspends; Argon2id runs on a Dispatch thread.
///
/// ```swift
/// let accounts = try await AccountAdministration.open(configuration: configuration)
/// defer { accounts.close() }
/// let created = try await accounts.add(email: "ada@example.com", password: password, role: "user", tenantID: nil)
/// ```
public struct AccountAdministration: Sendable {
    /// One account as `users list` prints it.
    public struct Account: Sendable, Equatable {
        public let id: String
        /// Nil for an account made from an identity without an email.
        public let email: String?
        public let role: String
        public let tenantID: String?
        public let disabled: Bool
        public let createdAt: Date
        public let emailVerified: Bool
        public let customerIDs: [String: String]
        /// The providers of the account's identities (`apple`, `google`, …), oldest link first.
        public let identityProviders: [String]
    }

    /// Why an operation was refused; `description` is one line for the terminal.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidEmail
        case invalidPassword(minLength: Int)
        case weakPassword
        case emailTaken
        case notFound
        case invalidCustomerID
        /// A tenant id that is empty or over 128 bytes (`users add --tenant`, `users set-tenant`).
        case invalidTenant
        /// The account has no such identity (`users unlink-identity`).
        case identityNotFound
        case store(String)

        public var description: String {
            switch self {
            case .invalidEmail: "the email address is not valid"
            case .invalidPassword(let minimum): "the password must be \(minimum) to 128 characters"
            case .weakPassword: "the password is one of the 10,000 most common passwords; choose another"
            case .emailTaken: "an account with this email exists"
            case .notFound: "no account with this email or user id"
            case .invalidCustomerID: "customer id keys and values must be 1 to 256 bytes"
            case .invalidTenant: "a tenant id must be 1 to 128 bytes"
            case .identityNotFound: "the account has no identity with this provider and subject"
            case .store(let reason): "database: \(reason)"
            }
        }
    }

    let backend: any StoreBackend
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let emailAsRegistered: Bool

    /// Opens the store of `configuration` (creating and migrating it when new; SQLite with one reader
    /// connection, as a short-lived command needs).
    /// - Throws: `StoreError` when the store cannot be opened, `PasswordHashError` for a bad Argon2id cost.
    public static func open(configuration: TokenServiceConfiguration) async throws -> AccountAdministration {
        var configuration = configuration
        configuration.database.readerCount = 1
        let backend = try await StoreOpener.open(configuration)
        do {
            return try AccountAdministration(backend: backend, configuration: configuration)
        } catch {
            backend.close()
            throw error
        }
    }

    /// Works on an open store (closed by `close()`), with the password and customer-id rules of `configuration`.
    /// - Throws: `PasswordHashError` for a bad Argon2id cost.
    public init(backend: any StoreBackend, configuration: TokenServiceConfiguration) throws {
        self.backend = backend
        hasher = try PasswordHasher(
            timeCost: configuration.password.timeCost, memoryKiB: configuration.password.memoryCost)
        policy = PasswordPolicy(minLength: configuration.password.minLength)
        emailAsRegistered = configuration.stream.emailCustomerId
    }

    var users: any UserStoring { backend.users }

    /// Creates an account with a verified email (the operator vouches for it). Its `registered` customer id
    /// is the email when `stream.emailCustomerId` is on, else the user id.
    public func add(email rawEmail: String, password rawPassword: String, role: String, tenantID: String?)
        async throws(Failure) -> Account
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        if let tenantID { try Self.checkTenant(tenantID) }
        let password: PasswordHash.Password
        switch policy.newPassword(rawPassword) {
        case .success(let accepted): password = accepted
        case .failure(.length): throw .invalidPassword(minLength: policy.minLength)
        case .failure(.common): throw .weakPassword
        }
        do {
            let hash = try await hash(password)
            let user = try await users.create(
                email: email.value, passwordHash: hash, role: role, tenantID: tenantID, emailVerifiedAt: Date())
            return try await account(user)
        } catch let failure as Failure {
            throw failure
        } catch StoreError.emailTaken {
            throw .emailTaken
        } catch {
            throw .store("\(error)")
        }
    }

    /// Every account, oldest first.
    public func list() async throws(Failure) -> [Account] {
        let all: [Store.User]
        do {
            all = try await users.list()
        } catch {
            throw .store("\(error)")
        }
        var accounts: [Account] = []
        for user in all { accounts.append(try await account(user)) }
        return accounts
    }

    /// Disables an account and revokes all its sessions at once; returns how many sessions were revoked.
    /// - Parameter account: the account's email, or its user id (for an account without an email): anything
    ///   without an `@` is taken as a user id.
    /// - Throws: `.invalidEmail`, `.notFound` for an unknown account, `.store`.
    public func disable(account: String) async throws(Failure) -> Int {
        let user = try await find(account)
        do {
            return try await users.disable(userID: user.id, now: Date())
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// Disables the account with this email (`disable(account:)`).
    public func disable(email: String) async throws(Failure) -> Int {
        guard email.contains("@") else { throw .invalidEmail }
        return try await disable(account: email)
    }

    /// Sets (or replaces) one customer id of an account.
    /// - Parameter account: as in `disable(account:)`.
    /// - Throws: `.invalidCustomerID`, `.invalidEmail`, `.notFound` for an unknown account, `.store`.
    public func setCustomerID(account: String, key: String, value: String) async throws(Failure) {
        guard (1...256).contains(key.utf8.count), (1...256).contains(value.utf8.count) else {
            throw .invalidCustomerID
        }
        let user = try await find(account)
        do {
            try await users.setCustomerID(userID: user.id, key: key, value: value)
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// Sets one customer id of the account with this email (`setCustomerID(account:key:value:)`).
    public func setCustomerID(email: String, key: String, value: String) async throws(Failure) {
        guard email.contains("@") else { throw .invalidEmail }
        try await setCustomerID(account: email, key: key, value: value)
    }

    /// Sets the tenant of an account, or clears it with `nil`: the `tenantId` of its next access tokens (and
    /// `{{user.tenantId}}` in vendor tokens). Tokens already issued keep the old tenant until they expire
    /// (`accessToken.ttlSeconds`); the next refresh carries the new one.
    /// - Parameter account: as in `disable(account:)`.
    /// - Throws: `.invalidTenant` (empty or over 128 bytes), `.invalidEmail`, `.notFound`, `.store`.
    public func setTenant(account: String, tenantID: String?) async throws(Failure) {
        if let tenantID { try Self.checkTenant(tenantID) }
        let user = try await find(account)
        do {
            try await users.setTenant(userID: user.id, tenantID: tenantID)
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// A tenant id is 1 to 128 bytes (what registration accepted before tenants became the operator's).
    static func checkTenant(_ tenantID: String) throws(Failure) {
        guard isValidTenant(tenantID) else { throw .invalidTenant }
    }

    /// Whether `tenantID` is 1 to 128 bytes of UTF-8: the one rule for every tenant the operator sets, by command
    /// (`users add --tenant`, `users set-tenant`) or by configuration (`identityProviders.<name>.tenant`).
    static func isValidTenant(_ tenantID: String) -> Bool {
        (1...128).contains(tenantID.utf8.count)
    }

    /// Marks an account's email as verified (the operator vouches for it), e.g. for accounts that existed
    /// before verification was recorded. Idempotent.
    public func verifyEmail(email rawEmail: String) async throws(Failure) {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        do {
            try await users.markEmailVerified(email: email.value, now: Date())
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// Closes the store.
    public func close() { backend.close() }

    private func account(_ user: Store.User) async throws(Failure) -> Account {
        do {
            return Account(
                id: user.id, email: user.email, role: user.role, tenantID: user.tenantID, disabled: user.isDisabled,
                createdAt: user.createdAt, emailVerified: user.isEmailVerified,
                customerIDs: try await users.customerIDs(userID: user.id, emailAsRegistered: emailAsRegistered),
                identityProviders: try await backend.identities.identities(userID: user.id).map(\.provider))
        } catch {
            throw .store("\(error)")
        }
    }

    /// Argon2id on a Dispatch thread, so no thread of the cooperative pool is held for its duration.
    private func hash(_ password: PasswordHash.Password) async throws(PasswordHashError) -> String {
        let hasher = self.hasher
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<String, PasswordHashError>, Never>) in
            DispatchQueue.global().async {
                do throws(PasswordHashError) {
                    continuation.resume(returning: .success(try hasher.hash(password)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
