import Foundation
import Mail
import Testing

@testable import TokenService

@Suite struct EmailConfigurationTests {
    @Test("with no email keys the code policy has its documented defaults and the file transport is used")
    func defaults() throws {
        let email = try ConfigurationFixture().resolve().email
        #expect(email.codeLength == 6)
        #expect(email.codeLifetimeSeconds == 600)
        #expect(email.sendsPerAddressPerMinute == 1)
        #expect(email.sendsPerAddressPerHour == 5)
        #expect(email.signInCodes == false)
        #expect(email.transportName == "file")
        #expect(email.isEnabled)
    }

    @Test("every email key has its TOKENVEND_EMAIL_ variable, as every other key")
    func environmentNames() throws {
        let names = Dictionary(
            ConfigurationKey.all.filter { $0.path.hasPrefix("email.") }.map { ($0.path, $0.environmentName) },
            uniquingKeysWith: { first, _ in first })
        #expect(names["email.transport"] == "TOKENVEND_EMAIL_TRANSPORT")
        #expect(names["email.smtp.url"] == "TOKENVEND_EMAIL_SMTP_URL")
        #expect(names["email.smtp.passwordFile"] == "TOKENVEND_EMAIL_SMTP_PASSWORD_FILE")
        #expect(names["email.smtp.caFile"] == "TOKENVEND_EMAIL_SMTP_CA_FILE")
        #expect(names["email.from"] == "TOKENVEND_EMAIL_FROM")
        #expect(names["email.codeLifetimeSeconds"] == "TOKENVEND_EMAIL_CODE_LIFETIME_SECONDS")
        #expect(names["email.sendsPerAddressPerHour"] == "TOKENVEND_EMAIL_SENDS_PER_ADDRESS_PER_HOUR")
        #expect(names.count == 16)
        let email = try ConfigurationFixture().resolve(environment: [
            "TOKENVEND_EMAIL_CODE_LENGTH": "8", "TOKENVEND_EMAIL_CODE_LIFETIME_SECONDS": "120",
            "TOKENVEND_EMAIL_SENDS_PER_ADDRESS_PER_MINUTE": "3", "TOKENVEND_EMAIL_SENDS_PER_ADDRESS_PER_HOUR": "9",
            "TOKENVEND_EMAIL_SIGN_IN_CODES": "true", "TOKENVEND_EMAIL_TRANSPORT": "off",
        ]).email
        #expect(email.codeLength == 8)
        #expect(email.codeLifetimeSeconds == 120)
        #expect(email.sendsPerAddressPerMinute == 3)
        #expect(email.sendsPerAddressPerHour == 9)
        #expect(email.signInCodes)
        #expect(email.transportName == "off")
        #expect(!email.isEnabled)
    }

    @Test("the file's nested smtp object is read, and an SMTP URL makes smtp the default transport")
    func nestedFileKeys() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json", #"{"email": {"smtp": {"url": "smtp://127.0.0.1:2525"}, "codeLength": 7}}"#)
        let email = try fixture.resolve(file: file).email
        #expect(email.transportName == "smtp")
        #expect(email.codeLength == 7)
        let misspelt = try fixture.write("m.json", #"{"email": {"smtp": {"urll": "smtp://127.0.0.1"}}}"#)
        #expect(
            fixture.error(file: misspelt)
                == .unknownKey(key: "email.smtp.urll", source: misspelt, suggestion: "email.smtp.url"))
    }

    @Test(
        "out-of-range code policy values are named with their key and variable",
        arguments: [
            (
                ["TOKENVEND_EMAIL_CODE_LENGTH": "5"],
                "email.codeLength (TOKENVEND_EMAIL_CODE_LENGTH): expected an integer from 6 to 10, got 5"
            ),
            (
                ["TOKENVEND_EMAIL_CODE_LIFETIME_SECONDS": "59"],
                "email.codeLifetimeSeconds (TOKENVEND_EMAIL_CODE_LIFETIME_SECONDS): expected an integer from 60 to "
                    + "86400, got 59"
            ),
            (
                ["TOKENVEND_EMAIL_TRANSPORT": "carrier-pigeon"],
                #"email.transport (TOKENVEND_EMAIL_TRANSPORT): expected one of smtp, file, off, got "carrier-pigeon""#
            ),
        ])
    func outOfRange(environment: [String: String], message: String) throws {
        let error = try #require(try ConfigurationFixture().error(environment: environment))
        #expect(error.description == message)
    }

    @Test("a CR or LF in email.from refuses startup, naming the key")
    func headerInjectionInFrom() throws {
        let fixture = try ConfigurationFixture()
        for from in ["a <a@example.com>\r\nBcc: victim@example.com", "a@example.com\nX: y"] {
            let error = try #require(fixture.error(environment: ["TOKENVEND_EMAIL_FROM": from]))
            guard case .invalidValue(let key, _, _) = error else {
                Issue.record("unexpected \(error)")
                continue
            }
            #expect(key == "email.from")
            #expect(!error.description.contains("victim"))
        }
    }

    @Test("a CR or LF in a template's subject refuses startup, naming the template")
    func headerInjectionInTemplate() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "t.json",
            #"{"email": {"templates": {"password_reset": {"subject": "Reset\r\nBcc: x@example.com", "#
                + #""text": "Your code: {{code}}"}}}}"#)
        let error = try #require(fixture.error(file: file))
        guard case .invalidValue(let key, _, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(key.hasPrefix("email.templates.password_reset"))
        let notObject = try #require(fixture.error(environment: ["TOKENVEND_EMAIL_TEMPLATES": "[1]"]))
        #expect(notObject.description.hasPrefix("email.templates (TOKENVEND_EMAIL_TEMPLATES): expected an object"))
    }

    @Test("the SMTP password and its file in one layer are refused; the file's secret is read into the password")
    func passwordAndFile() throws {
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("smtp-password", "hunter2-hunter2\n")
        let both = fixture.error(environment: [
            "TOKENVEND_EMAIL_SMTP_PASSWORD": "x", "TOKENVEND_EMAIL_SMTP_PASSWORD_FILE": path,
        ])
        #expect(
            both
                == .invalidValue(
                    key: "email.smtp.passwordFile", source: "TOKENVEND_EMAIL_SMTP_PASSWORD_FILE",
                    reason: "give either email.smtp.password or email.smtp.passwordFile, not both"))
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_EMAIL_SMTP_URL": "smtp://127.0.0.1:2525", "TOKENVEND_EMAIL_SMTP_USERNAME": "mailer",
            "TOKENVEND_EMAIL_SMTP_PASSWORD_FILE": path,
        ])
        guard case .smtp(let smtp)? = configuration.email.mail?.transport else {
            Issue.record("expected the smtp transport")
            return
        }
        #expect(smtp.password == "hunter2-hunter2")
        #expect(!"\(configuration)".contains("hunter2"))
    }
}
