import ArgumentParser
import Foundation
import JWT

/// `tokenvend keys generate`: create secrets for `accessToken.keys` and `stream.keys`.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage signing secrets.",
        subcommands: [Generate.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a new random secret for HS512: 64 random bytes, base64url (86 characters)."
        )

        func run() throws {
            print(try HMACKey.generateSecret(byteCount: 64))
        }
    }
}
