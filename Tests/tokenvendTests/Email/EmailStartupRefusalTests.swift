import Foundation
import Testing
import TokenClientTesting

/// `tokenvend serve` refuses a mail configuration that could inject a header: CR or LF in `email.from` or in a
/// template's subject stops startup with exit 1 and a line naming the key.
@Suite(.timeLimit(.minutes(1)))
struct EmailStartupRefusalTests {
    @Test(
        "CR or LF in email.from or a template subject: serve exits 1 naming the key",
        arguments: [
            (#"{"from": "Ops <ops@example.com>\r\nBcc: victim@example.com"}"#, "email.from"),
            (#"{"from": "ops@example.com\nX-Evil: 1"}"#, "email.from"),
            (
                #"{"templates": {"password_reset": {"subject": "Reset\r\nBcc: victim@example.com", "text": "{{code}}"}}}"#,
                "email.templates"
            ),
            (#"{"templates": {"verification": {"subject": "Hi\nthere", "text": "Code {{code}}"}}}"#, "email.templates"),
        ])
    func refusesHeaderInjection(email: String, key: String) async throws {
        let fixture = try EmailServerFixture(postgres: false)
        let members = try #require(try JSONSerialization.jsonObject(with: Data(email.utf8)) as? [String: Any])
        let configuration = try fixture.configuration(smtpPort: 25, email: members)
        let run = try await ServeProcess.refusal(configuration, folder: fixture.folder.url)
        #expect(run.status == 1)
        #expect(run.error.contains(key))
        #expect(!run.error.contains("tokenvend listening"))
    }
}
