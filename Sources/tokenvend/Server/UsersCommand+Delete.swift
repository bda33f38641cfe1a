import ArgumentParser
import FoundationEssentials
import Store
import TokenService

extension UsersCommand {
    struct DeleteUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an account for good, as the user's own deletion does; keeps only an audit record.",
            discussion: """
                Removes the user, its identities, customer ids and every session (every running \
                instance refuses its tokens at once), and keeps only the record of the deletion (user id, time, \
                method operator), printed as one JSON line: {"deletedAt", "method", "revocationsQueued", \
                "userId"}. The email can register again afterwards. For each Sign in with Apple identity holding \
                Apple's refresh token, a revocation is queued in the database's outbox: this command does not \
                call Apple itself; a running tokenvend serve on the same database sends it within 30 s (its \
                outbox sender's poll), retrying for up to 7 days. Exit status: 0 deleted, 1 for an unknown (or \
                already deleted) account or a database failure, 2 usage error.
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @OptionGroup var target: AccountOption

        func run() async throws {
            let (account, email) = (target.chosen, target.email)
            let deletion = try await UsersCommand.withAccounts(options) {
                if email != nil, !account.contains("@") { throw AccountAdministration.Failure.invalidEmail }
                return try await $0.delete(account: account)
            }
            let line = DeletionLine(
                userId: deletion.record.userID, deletedAt: deletion.record.deletedAt.formatted(.iso8601),
                method: deletion.record.method.rawValue, revocationsQueued: deletion.revocationsQueued)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(line), as: UTF8.self))
        }
    }
}

/// The JSON line `users delete` prints.
private struct DeletionLine: Encodable {
    let userId: String
    let deletedAt: String
    let method: String
    let revocationsQueued: Int
}
