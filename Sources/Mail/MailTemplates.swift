/// The subject, plain text and optional HTML of each ``MailKind``, with `{{code}}`, `{{minutes}}`,
/// `{{appName}}` and `{{email}}` placeholders.
///
/// **The code guarantee.** In the plain text of a kind that carries a code, the code is the only run of exactly
/// `codeLength` digits — and no other run has that many digits or more, so a pattern like `\d{6}` finds the
/// code. It holds for every input: ``parse(_:codeLength:appName:)`` refuses templates whose literal digits (or
/// `appName`, or digits beside `{{minutes}}`, which renders as 1–4 digits) could make such a run, refuses
/// `{{code}}` touching other digits, and refuses `{{email}}` in the plain text of a code kind (an address may
/// hold digits); ``render(_:_:)`` checks the result again. Digits are every Unicode decimal digit, not only
/// `0`–`9`.
///
/// ```swift
/// let templates = try MailTemplates.parse(section, codeLength: 6, appName: "Acme")
/// let content = try templates.render(.signIn, MailValues(code: "042917", minutes: 10, appName: "Acme", email: e))
/// ```
public struct MailTemplates: Sendable {
    /// Each kind's template.
    var templates: [MailKind: MailTemplate]
    /// The code length the templates were checked for; `nil` for ``english`` (checked for 6–10).
    var codeLength: Int?

    /// Clear English defaults, plain text only.
    public static let english = MailTemplates(
        templates: englishTexts.mapValues { texts in
            // Constants without a stray "{{", so parsing cannot fail; MailTemplatesTests proves them for every
            // code length.
            MailTemplate(
                subject: (try? TemplateText(parsing: texts.subject)) ?? TemplateText(),
                text: (try? TemplateText(parsing: texts.text)) ?? TemplateText(), html: nil)
        },
        codeLength: nil)

    /// Renders `kind` with `values`.
    ///
    /// Values in the HTML are escaped (`&`, `<`, `>`, `"`, `'`).
    /// - Throws: ``MailError/invalidCode`` when a code kind has no code or one that is not `codeLength` ASCII
    ///   digits (6–10 for ``english``); ``MailError/controlCharacter(field:)`` for CR, LF or NUL in `appName` or
    ///   `email`; ``MailError/codeNotUnique`` if the rendered text would break the guarantee (another `appName`
    ///   than the one parsed with, say).
    public func render(_ kind: MailKind, _ values: MailValues) throws(MailError) -> MailContent {
        guard let template = templates[kind] else { throw .invalidCode }
        var code = ""
        if kind.carriesCode {
            guard let given = values.code, given.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                codeLength.map({ given.utf8.count == $0 }) ?? (6...10).contains(given.utf8.count)
            else { throw .invalidCode }
            code = given
        }
        guard !HeaderText.hasControlCharacter(values.appName) else { throw .controlCharacter(field: "appName") }
        guard !HeaderText.hasControlCharacter(values.email) else { throw .controlCharacter(field: "email") }
        func value(_ placeholder: TemplateText.Placeholder, html: Bool) -> String {
            switch placeholder {
            case .code: code
            case .minutes: String(values.minutes)
            case .appName: html ? Self.escapeHTML(values.appName) : values.appName
            case .email: html ? Self.escapeHTML(values.email) : values.email
            }
        }
        let content = MailContent(
            subject: template.subject.rendered { value($0, html: false) },
            text: template.text.rendered { value($0, html: false) },
            html: template.html?.rendered { value($0, html: true) })
        if kind.carriesCode, !DigitRuns.isOnlyRun(code, in: content.text) { throw .codeNotUnique }
        return content
    }

    /// `text` safe in HTML text and in a double- or single-quoted attribute value (also the deletion page's).
    package static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
