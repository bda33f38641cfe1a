import Foundation
import StrictJSON
import Testing

@testable import Mail

@Suite struct MailTemplatesTests {
    static func values(_ code: String?, minutes: Int = 10, appName: String = "tokenvend", email: String = "a@b.c")
        -> MailValues
    {
        MailValues(code: code, minutes: minutes, appName: appName, email: email)
    }

    static func parse(_ json: String, codeLength: Int = 6, appName: String = "tokenvend") throws -> MailTemplates {
        guard let object = try JSONValue.parse(Array(json.utf8)).objectValue else {
            throw MailConfigurationError(path: "test", reason: "not an object")
        }
        return try MailTemplates.parse(object, codeLength: codeLength, appName: appName)
    }

    static func refusal(_ json: String, codeLength: Int = 6, appName: String = "tokenvend") -> MailConfigurationError? {
        do {
            _ = try parse(json, codeLength: codeLength, appName: appName)
            return nil
        } catch {
            return error as? MailConfigurationError
        }
    }

    @Test("the English defaults parse for every code length and render each kind", arguments: 6...10)
    func englishDefaults(codeLength: Int) throws {
        let templates = try Self.parse("{}", codeLength: codeLength)
        let code = String(repeating: "7", count: codeLength)
        for kind in MailKind.allCases {
            let content = try templates.render(kind, Self.values(kind.carriesCode ? code : nil, email: "new@x.org"))
            #expect(!content.subject.isEmpty && content.subject.contains("tokenvend"))
            #expect(content.html == nil)
            #expect(content.text.contains(code) == kind.carriesCode)
            #expect(content.text.hasSuffix("\n"))
        }
        #expect(
            try templates.render(.signIn, Self.values(code)) == MailTemplates.english.render(.signIn, Self.values(code))
        )
        let notice = try templates.render(.emailChangedNotice, Self.values(nil, email: "new@x.org"))
        #expect(notice.text.contains("new@x.org"))
    }

    @Test("overrides are partial: a kind left out, or a member left out, keeps the English default")
    func partialOverrides() throws {
        let templates = try Self.parse(
            #"{"sign_in": {"subject": "{{code}} is your {{appName}} code", "html": "<p>{{code}} for {{email}}</p>"},"#
                + #" "verification": null}"#)
        let content = try templates.render(.signIn, Self.values("042917", email: "a<b>@c.d"))
        #expect(content.subject == "042917 is your tokenvend code")
        #expect(try content.text == MailTemplates.english.render(.signIn, Self.values("042917")).text)
        #expect(content.html == "<p>042917 for a&lt;b&gt;@c.d</p>\n")
        #expect(
            try templates.render(.verification, Self.values("042917"))
                == MailTemplates.english.render(.verification, Self.values("042917")))
    }

    @Test(
        "templates that break a rule are refused at startup with the member path and the reason",
        arguments: [
            (
                #"{"welcome": {}}"#, "email.templates.welcome",
                "unknown template kind welcome (kinds: verification, password_reset, sign_in, email_change, "
                    + "email_changed_notice, deletion)"
            ),
            (#"{"sign_in": "x"}"#, "email.templates.sign_in", "expected an object with subject, text and html"),
            (
                #"{"sign_in": {"body": "x"}}"#, "email.templates.sign_in.body",
                "unknown member body (members: subject, text, html)"
            ),
            (#"{"sign_in": {"subject": 5}}"#, "email.templates.sign_in.subject", "expected a string"),
            (#"{"sign_in": {"subject": ""}}"#, "email.templates.sign_in.subject", "must not be empty"),
            (
                #"{"sign_in": {"subject": "{{name}}"}}"#, "email.templates.sign_in.subject",
                "unknown placeholder {{name}} (placeholders: {{code}}, {{minutes}}, {{appName}}, {{email}})"
            ),
            (
                #"{"sign_in": {"text": "{{code"}}"#, "email.templates.sign_in.text",
                "unclosed {{ (placeholders: {{code}}, {{minutes}}, {{appName}}, {{email}})"
            ),
            (
                #"{"sign_in": {"subject": "Code\r\nBcc: eve@x.org"}}"#, "email.templates.sign_in.subject",
                "CR, LF or NUL refused: a subject is one header line"
            ),
            (
                #"{"sign_in": {"subject": "Code\n"}}"#, "email.templates.sign_in.subject",
                "CR, LF or NUL refused: a subject is one header line"
            ),
            (
                #"{"sign_in": {"text": "{{code}}\r\n"}}"#, "email.templates.sign_in.text",
                "CR or NUL refused: lines end with \\n"
            ),
            (
                #"{"sign_in": {"text": "no code here"}}"#, "email.templates.sign_in.text",
                "must contain {{code}} exactly once (found 0)"
            ),
            (
                #"{"sign_in": {"text": "{{code}} {{code}}"}}"#, "email.templates.sign_in.text",
                "must contain {{code}} exactly once (found 2)"
            ),
            (
                #"{"sign_in": {"html": "<p>no code</p>"}}"#, "email.templates.sign_in.html",
                "must contain {{code}} exactly once (found 0)"
            ),
            (
                #"{"email_changed_notice": {"text": "{{code}}"}}"#, "email.templates.email_changed_notice.text",
                "{{code}} is not allowed: email_changed_notice carries no code"
            ),
            (
                #"{"email_changed_notice": {"subject": "{{code}}"}}"#, "email.templates.email_changed_notice.subject",
                "{{code}} is not allowed: email_changed_notice carries no code"
            ),
            (
                #"{"sign_in": {"text": "{{code}} for {{email}}"}}"#, "email.templates.sign_in.text",
                "{{email}} is not allowed in the plain text of a message with a code: an address may hold a run of "
                    + "digits, and the code must be the only one"
            ),
            (
                #"{"sign_in": {"text": "{{code}} or call 0800123456"}}"#, "email.templates.sign_in.text",
                "a run of 6 or more digits besides {{code}}: the code must be the only one"
            ),
            (
                #"{"sign_in": {"text": "{{code}} or call ٠٨٠٠١٢"}}"#, "email.templates.sign_in.text",
                "a run of 6 or more digits besides {{code}}: the code must be the only one"
            ),
            (
                #"{"sign_in": {"text": "{{code}}0"}}"#, "email.templates.sign_in.text",
                "{{code}} must not touch other digits or {{minutes}}"
            ),
            (
                #"{"sign_in": {"text": "{{minutes}}{{code}}"}}"#, "email.templates.sign_in.text",
                "{{code}} must not touch other digits or {{minutes}}"
            ),
            (
                #"{"sign_in": {"text": "{{code}}, valid {{minutes}}00 seconds"}}"#, "email.templates.sign_in.text",
                "digits beside {{minutes}} could make a run of 6 digits: the code must be the only one"
            ),
        ])
    func refusals(json: String, path: String, reason: String) {
        #expect(Self.refusal(json) == MailConfigurationError(path: path, reason: reason))
    }

    @Test("appName is checked too: CR or LF, a run of codeLength digits, or digits touching {{code}}")
    func appNameRefusals() {
        #expect(
            Self.refusal("{}", appName: "Shop\r\nBcc: x")
                == MailConfigurationError(path: "email.appName", reason: "CR, LF or NUL refused (it goes into headers)")
        )
        #expect(
            Self.refusal("{}", codeLength: 7, appName: "Shop 24/7 1234567")
                == MailConfigurationError(
                    path: "email.appName",
                    reason: "a run of 7 or more digits: the code must be the only one in a message"))
        #expect(
            Self.refusal(#"{"sign_in": {"text": "{{appName}}{{code}}"}}"#, appName: "Room 101")
                == MailConfigurationError(
                    path: "email.templates.sign_in.text", reason: "{{code}} must not touch other digits or {{minutes}}")
        )
        #expect(
            Self.refusal("{}", codeLength: 5)
                == MailConfigurationError(path: "email.codeLength", reason: "must be 6–10 (digits in a code)"))
        #expect(Self.refusal("{}", appName: "Room 101 (12345)") == nil)
    }

    @Test("rendering refuses a missing or malformed code and CR or LF in a value")
    func renderRefusals() throws {
        let templates = try Self.parse("{}", codeLength: 6)
        for code in [nil, "12345", "1234567", "12345a", "１２３４５６"] {
            #expect(throws: MailError.invalidCode) { try templates.render(.signIn, Self.values(code)) }
        }
        #expect(throws: MailError.controlCharacter(field: "appName")) {
            try templates.render(.signIn, Self.values("123456", appName: "x\r\nBcc: y"))
        }
        #expect(throws: MailError.controlCharacter(field: "email")) {
            try templates.render(.emailChangedNotice, Self.values(nil, email: "a@b.c\nBcc: y"))
        }
        // Another appName than the one parsed with, holding a run of six digits: caught at rendering.
        #expect(throws: MailError.codeNotUnique) {
            try templates.render(.signIn, Self.values("123456", appName: "Shop 999999"))
        }
    }

    /// The guarantee, checked independently of DigitRuns: every maximal run of Unicode decimal digits.
    static func digitRuns(_ text: String) -> [String] {
        var runs: [String] = []
        var current = ""
        for character in text {
            if character.unicodeScalars.count == 1, let value = character.unicodeScalars.first,
                value.properties.numericType == .decimal
            {
                current.append(character)
            } else {
                if !current.isEmpty { runs.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    @Test("the code is the only run of codeLength (or more) digits, for random templates, codes and values")
    func guaranteeProperty() throws {
        // A failure names the template, the appName and the code, so it can be replayed by hand.
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "{{minutes}}", "{{appName}}", "{{email}}", "1", "12", "12345", "123456789", " ", "-", "a", "٣", "\n",
            "Call 555-0100. ", "{{minutes}} minutes", "0", " ", "Code: ", "\n\n",
        ]
        let appNames = ["tokenvend", "Shop 24", "R2D2", "Room 101 (12345)", "123456", "App٣٣٣٣٣٣"]
        var accepted = 0
        for _ in 0..<3000 {
            let codeLength = Int.random(in: 6...10, using: &generator)
            let appName = appNames.randomElement(using: &generator) ?? ""
            // {{code}} once, mostly, among other pieces; sometimes missing or twice (refused).
            var parts = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator) ?? ""
            }
            for _ in 0..<([0, 1, 1, 1, 1, 1, 1, 1, 1, 2].randomElement(using: &generator) ?? 1) {
                parts.insert("{{code}}", at: Int.random(in: 0...parts.count, using: &generator))
            }
            let text = parts.joined()
            let json = #"{"sign_in": {"text": ""# + text.replacingOccurrences(of: "\n", with: "\\n") + #""}}"#
            guard let templates = try? Self.parse(json, codeLength: codeLength, appName: appName) else { continue }
            accepted += 1
            for _ in 0..<20 {
                let code = String((0..<codeLength).map { _ in "0123456789".randomElement(using: &generator) ?? "0" })
                let values = Self.values(
                    code, minutes: Int.random(in: 1...1440, using: &generator), appName: appName,
                    email: "u\(Int.random(in: 0...99_999_999_999, using: &generator))@x.org")
                let content = try templates.render(.signIn, values)
                let long = Self.digitRuns(content.text).filter { $0.count >= codeLength }
                #expect(long == [code], "\(text) with \(appName)")
            }
        }
        #expect(accepted > 500)
    }

    @Test("the English defaults keep the guarantee for many codes of every length", arguments: 6...10)
    func englishGuarantee(codeLength: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let templates = try Self.parse("{}", codeLength: codeLength)
        for kind in MailKind.allCases where kind.carriesCode {
            for minutes in [1, 9, 10, 99, 100, 1440] {
                let code = String((0..<codeLength).map { _ in "0123456789".randomElement(using: &generator) ?? "0" })
                let content = try templates.render(kind, Self.values(code, minutes: minutes))
                #expect(Self.digitRuns(content.text).filter { $0.count >= codeLength } == [code])
            }
        }
    }
}
