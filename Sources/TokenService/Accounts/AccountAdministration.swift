public import Foundation
import PasswordHash
import Store

/// The operator's view of accounts, behind `tokenvend users …`: it works on the same database file as a
/// running server (SQLite's busy timeout queues the writes), and applies the same email and password rules.
public struct AccountAdministration: Sendable {
    /// One account as `users list` prints it.
    public struct Account: Sendable, Equatable {
        public let id: String
        public let email: String
        public let role: String
        public let tenantID: String?
        public let disabled: Bool
        public let createdAt: Date
        public let emailVerified: Bool
        public let customerIDs: [String: String]
    }

    /// Why an operation was refused; `description` is one line for the terminal.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidEmail
        case invalidPassword(minLength: Int)
        case weakPassword
        case emailTaken
        case notFound
        case invalidCustomerID
        case store(String)

        public var description: String {
            switch self {
            case .invalidEmail: "the email address is not valid"
            case .invalidPassword(let minimum): "the password must be \(minimum) to 128 characters"
            case .weakPassword: "the password is one of the 10,000 most common passwords; choose another"
            case .emailTaken: "an account with this email exists"
            case .notFound: "no account with this email"
            case .invalidCustomerID: "customer id keys and values must be 1 to 256 bytes"
            case .store(let reason): "database: \(reason)"
            }
        }
    }

    private let database: Store.Database
    private let users: UserStore
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let emailAsRegistered: Bool

    /// Opens the database of `configuration` (creating and migrating it when new).
    public init(configuration: TokenServiceConfiguration) throws {
        var storage = configuration.database
        storage.readerCount = 1
        database = try Store.Database(configuration: storage)
        users = UserStore(database: database)
        hasher = try PasswordHasher(
            timeCost: configuration.password.timeCost, memoryKiB: configuration.password.memoryCost)
        policy = PasswordPolicy(minLength: configuration.password.minLength)
        emailAsRegistered = configuration.stream.emailCustomerId
    }

    /// Creates an account with a verified email (the operator vouches for it). Its `registered` customer id
    /// is the email when `stream.emailCustomerId` is on, else the user id.
    public func add(email rawEmail: String, password rawPassword: String, role: String, tenantID: String?)
        throws(Failure)
        -> Account
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        let password: PasswordHash.Password
        switch policy.newPassword(rawPassword) {
        case .success(let accepted): password = accepted
        case .failure(.length): throw .invalidPassword(minLength: policy.minLength)
        case .failure(.common): throw .weakPassword
        }
        do {
            let hash = try hasher.hash(password)
            let user = try users.create(
                email: email.value, passwordHash: hash, role: role, tenantID: tenantID, emailVerifiedAt: Date())
            return try account(user)
        } catch let failure as Failure {
            throw failure
        } catch StoreError.emailTaken {
            throw .emailTaken
        } catch {
            throw .store("\(error)")
        }
    }

    /// Every account, oldest first.
    public func list() throws(Failure) -> [Account] {
        do {
            return try users.list().map { user throws(Failure) in try account(user) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .store("\(error)")
        }
    }

    /// Disables an account and revokes all its sessions at once; returns how many sessions were revoked.
    public func disable(email rawEmail: String) throws(Failure) -> Int {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        do {
            return try users.disable(email: email.value)
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// Sets (or replaces) one customer id of an account.
    public func setCustomerID(email rawEmail: String, key: String, value: String) throws(Failure) {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        guard (1...256).contains(key.utf8.count), (1...256).contains(value.utf8.count) else {
            throw .invalidCustomerID
        }
        do {
            try users.setCustomerID(email: email.value, key: key, value: value)
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// Marks an account's email as verified (the operator vouches for it), e.g. for accounts that existed
    /// before verification was recorded. Idempotent.
    public func verifyEmail(email rawEmail: String) throws(Failure) {
        guard let email = EmailAddress(rawEmail) else { throw .invalidEmail }
        do {
            try users.markEmailVerified(email: email.value)
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }

    /// Closes the database.
    public func close() { database.close() }

    private func account(_ user: Store.User) throws(Failure) -> Account {
        do {
            return Account(
                id: user.id, email: user.email, role: user.role, tenantID: user.tenantID, disabled: user.isDisabled,
                createdAt: user.createdAt, emailVerified: user.isEmailVerified,
                customerIDs: try users.customerIDs(userID: user.id, emailAsRegistered: emailAsRegistered))
        } catch {
            throw .store("\(error)")
        }
    }
}
