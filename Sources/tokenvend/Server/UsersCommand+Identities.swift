import ArgumentParser
import FoundationEssentials
import TokenService

extension UsersCommand {
    struct ListIdentities: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "identities",
            abstract: "List an account's identities (Sign in with Apple, Google, …), one line each.",
            discussion: """
                Prints PROVIDER SUBJECT EMAIL LINKED-AT per identity, tab-separated (EMAIL is - when the provider \
                gave none). Exit status: 0 (also for an account without identities), 1 for an unknown account.
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @Argument(help: "The account's email address, or its user id for an account without an email.")
        var account: String

        func run() async throws {
            let identities = try await UsersCommand.withAccounts(options) { try await $0.identities(account: account) }
            for identity in identities {
                let fields = [
                    identity.provider, identity.subject, identity.email ?? "-",
                    identity.createdAt.formatted(.iso8601),
                ]
                print(fields.joined(separator: "\t"))
            }
        }
    }

    struct UnlinkIdentity: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlink-identity",
            abstract: "Remove one identity of an account: it can no longer sign in with it.",
            discussion: """
                The account's sessions stay (revoke them with users disable). A later sign-in with that identity \
                counts as a new one. Exit status: 0 when unlinked, 1 for an unknown account or an identity the \
                account does not have.
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @Argument(help: "The account's email address, or its user id for an account without an email.")
        var account: String
        @Argument(help: "The provider name, e.g. apple or google.") var provider: String
        @Argument(help: "The provider's subject (the ID token's sub).") var subject: String

        func run() async throws {
            try await UsersCommand.withAccounts(options) {
                try await $0.unlinkIdentity(account: account, provider: provider, subject: subject)
            }
            print("unlinked \(provider) \(subject) from \(account)")
        }
    }
}
