import ArgumentParser
import FoundationEssentials
import TokenService

/// `tokenvend users add|list|disable|delete|set-customer-id|set-tenant|verify-email|identities|unlink-identity`, on the same store
/// as running servers (SQLite or PostgreSQL, through the async store API).
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage accounts in the database (safe while the server runs).",
        subcommands: [
            AddUser.self, ListUsers.self, DisableUser.self, DeleteUser.self, SetCustomerID.self, SetTenant.self,
            VerifyEmail.self, ListIdentities.self, UnlinkIdentity.self,
        ]
    )

    /// Opens the configured store, runs `body`, and turns a refusal into one line on stderr and exit 1.
    static func withAccounts<T>(
        _ options: ServerConfigurationOptions, _ body: (AccountAdministration) async throws -> T
    ) async throws -> T {
        let configuration = try options.load(prepareStorage: false).configuration
        do {
            let accounts = try await AccountAdministration.open(configuration: configuration)
            defer { accounts.close() }
            return try await body(accounts)
        } catch let failure as AccountAdministration.Failure {
            TerminalIO.writeStandardError("tokenvend users: \(failure.description)")
            throw ExitCode.failure
        } catch let exit as ExitCode {
            throw exit
        } catch {
            TerminalIO.writeStandardError("tokenvend users: \(error)")
            throw ExitCode.failure
        }
    }
}

extension UsersCommand {
    struct AddUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Create an account (password from stdin, $TOKENVEND_PASSWORD or a prompt).")
        @OptionGroup var options: ServerConfigurationOptions
        @Option(help: "The account's email address.") var email: String
        @Flag(help: "Read the password from the first line of stdin.") var passwordStdin = false
        @Option(help: "The role.") var role = "user"
        @Option(help: "The tenant id.") var tenant: String?

        func run() async throws {
            let context = ClientContext.live
            let reader = PasswordReader(
                fromStandardInput: passwordStdin, environment: context.environment,
                standardInputIsTerminal: context.standardInputIsTerminal,
                nextStandardInputByte: context.nextStandardInputByte,
                promptWithoutEcho: { [email] in try context.promptWithoutEcho("Password for \(email): ") })
            let password: String
            do {
                password = try reader.read()
            } catch let error as ClientCommandError {
                TerminalIO.writeStandardError("tokenvend users add: \(error)")
                throw ExitCode(2)
            }
            let account = try await UsersCommand.withAccounts(options) {
                try await $0.add(email: email, password: password, role: role, tenantID: tenant)
            }
            print("created \(account.email ?? "-") (id \(account.id))")
        }
    }

    struct ListUsers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List accounts, one JSON line each.")
        @OptionGroup var options: ServerConfigurationOptions

        func run() async throws {
            let accounts = try await UsersCommand.withAccounts(options) { try await $0.list() }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for account in accounts {
                let line = ListedAccount(account)
                print(String(decoding: try encoder.encode(line), as: UTF8.self))
            }
        }
    }

    struct DisableUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable", abstract: "Disable an account and revoke all its sessions at once.")
        @OptionGroup var options: ServerConfigurationOptions
        @OptionGroup var target: AccountOption

        func run() async throws {
            let (account, email) = (target.chosen, target.email)
            let revoked = try await UsersCommand.withAccounts(options) {
                try await email == nil ? $0.disable(account: account) : $0.disable(email: account)
            }
            print("disabled \(account); \(revoked) session(s) revoked")
        }
    }

    struct SetCustomerID: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-customer-id", abstract: "Set one Bloomreach customer id of an account.")
        @OptionGroup var options: ServerConfigurationOptions
        @OptionGroup var target: AccountOption
        @Option(help: "The customer id key, e.g. registered.") var key: String
        @Option(help: "The customer id value.") var value: String

        func run() async throws {
            let (account, email) = (target.chosen, target.email)
            try await UsersCommand.withAccounts(options) {
                if email == nil {
                    try await $0.setCustomerID(account: account, key: key, value: value)
                } else {
                    try await $0.setCustomerID(email: account, key: key, value: value)
                }
            }
            print("set \(key) for \(account)")
        }
    }

    struct SetTenant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-tenant",
            abstract: "Set or clear an account's tenant (its access tokens' tenantId from the next refresh on).")
        @OptionGroup var options: ServerConfigurationOptions
        @OptionGroup var target: AccountOption
        @Option(help: "The tenant id (1 to 128 bytes).") var tenant: String?
        @Flag(help: "Remove the account's tenant.") var clear = false

        func validate() throws {
            guard (tenant == nil) == clear else { throw ValidationError("Give exactly one of --tenant and --clear.") }
        }

        func run() async throws {
            let (account, tenant) = (target.chosen, tenant)
            try await UsersCommand.withAccounts(options) { try await $0.setTenant(account: account, tenantID: tenant) }
            print(tenant.map { "set tenant \($0) for \(account)" } ?? "cleared the tenant of \(account)")
        }
    }

    struct VerifyEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify-email",
            abstract: "Mark an account's email as verified (it may then be a customer id; see stream.emailCustomerId).")
        @OptionGroup var options: ServerConfigurationOptions
        @Option(help: "The account's email address.") var email: String

        func run() async throws {
            try await UsersCommand.withAccounts(options) { try await $0.verifyEmail(email: email) }
            print("verified \(email)")
        }
    }
}

/// The account a command works on: `--email`, or `--account` (an email, or a user id for an account without an
/// email); exactly one.
struct AccountOption: ParsableArguments {
    @Option(help: "The account's email address.") var email: String?
    @Option(help: "The account's email address or user id (for an account without an email).") var account: String?

    func validate() throws {
        guard (email == nil) != (account == nil) else {
            throw ValidationError("Give exactly one of --email and --account.")
        }
    }

    /// The email or user id given.
    var chosen: String { email ?? account ?? "" }
}

/// The JSON line `users list` prints per account; `email` is `null` for an account made from an identity
/// without one, and `identities` lists the providers it can sign in with.
private struct ListedAccount: Encodable {
    let id: String
    let email: String?
    let role: String
    let tenantId: String?
    let disabled: Bool
    let emailVerified: Bool
    let createdAt: String
    let customerIds: [String: String]
    let identities: [String]

    private enum CodingKeys: String, CodingKey {
        case id, email, role, tenantId, disabled, emailVerified, createdAt, customerIds, identities
    }

    /// Every member; a missing email is `null`, a missing tenant is left out (as before).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encodeIfPresent(tenantId, forKey: .tenantId)
        try container.encode(disabled, forKey: .disabled)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(customerIds, forKey: .customerIds)
        try container.encode(identities, forKey: .identities)
    }

    init(_ account: AccountAdministration.Account) {
        id = account.id
        email = account.email
        role = account.role
        tenantId = account.tenantID
        disabled = account.disabled
        emailVerified = account.emailVerified
        createdAt = account.createdAt.formatted(.iso8601)
        customerIds = account.customerIDs
        identities = account.identityProviders
    }
}
