import MailTesting
import Testing

extension SMTPSink {
    /// The code of the next message the sink accepts, which must go to `address`: the only run of six digits in its
    /// plain text, as a user reads it.
    func code(to address: String) async throws -> String {
        let mail = try await nextMessage()
        #expect(mail.rcptTos == [address])
        let runs = (mail.text ?? "").split { !$0.isASCII || !$0.isNumber }.filter { $0.count == 6 }
        try #require(runs.count == 1)
        return String(runs[0])
    }
}
