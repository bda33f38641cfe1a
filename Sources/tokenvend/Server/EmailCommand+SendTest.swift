import ArgumentParser
import FoundationEssentials
import Mail
import TokenService

extension EmailCommand {
    struct SendTest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send-test",
            abstract: "Send one test message through the configured transport, directly (not through the outbox).",
            discussion: """
                Builds the transport tokenvend serve would use (email.*, with the environment), sends a short \
                message to --to and prints where it went (the SMTP server, or the .eml file). On failure prints \
                the delivery error's reason (never a password or a message body). Exit status: 0 sent, 1 failed \
                (also with email.transport off), 2 usage error (an address that is not one).
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @Option(help: ArgumentHelp("The recipient: addr@host or \"Name <addr@host>\".", valueName: "address"))
        var to: String

        func run() async throws {
            let configuration = try options.load(prepareStorage: false).configuration
            let recipient: Mailbox
            do {
                recipient = try Mailbox(to)
            } catch {
                TerminalIO.writeStandardError("tokenvend email send-test: --to: \(error)")
                throw ExitCode(2)
            }
            guard let mail = configuration.email.mail, let transport = mail.makeTransport() else {
                throw EmailCommand.fail("send-test", "email.transport is off: there is nothing to send with")
            }
            let message: MailMessage
            do {
                message = try MailMessage(
                    from: mail.from, to: recipient, content: Self.content(appName: mail.appName), date: Date(),
                    messageID: UUID().uuidString.lowercased())
            } catch {
                throw EmailCommand.fail("send-test", "\(error)")
            }
            let receipt: MailReceipt
            do throws(MailDeliveryError) {
                receipt = try await transport.deliver(
                    message.encoded(), from: mail.from.address, to: recipient.address)
            } catch {
                throw EmailCommand.fail("send-test", "not sent (\(error))")
            }
            print("sent to \(recipient.address) via \(receipt.location ?? Self.describe(mail.transport))")
        }

        /// The test message: says what it is and nothing else (no code).
        static func content(appName: String) -> MailContent {
            MailContent(
                subject: "\(appName): test message",
                text: "This is a test message from \(appName) (tokenvend email send-test). No action is needed.\n")
        }

        /// Where the transport sends: the SMTP URL (it carries no credentials) or the folder.
        static func describe(_ transport: MailConfiguration.Transport) -> String {
            switch transport {
            case .smtp(let settings): settings.url
            case .file(let directory): directory
            case .off: "nothing"
            }
        }
    }
}
