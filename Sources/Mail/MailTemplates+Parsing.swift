public import StrictJSON

extension MailTemplates {
    /// The English defaults with the `email.templates` section's overrides, checked for `codeLength` and
    /// `appName`.
    ///
    /// The section is `{"<kind>": {"subject", "text", "html"?}}`; kinds left out, and members left out of a kind,
    /// keep the English default (`null` counts as left out). Text and HTML get a final `\n` when they lack one.
    /// - Throws: ``MailConfigurationError`` at `email.templates.<kind>[.<member>]` for an unknown kind or member,
    ///   a value that is not a non-empty string, an unknown or unclosed placeholder, CR, LF or NUL in a subject,
    ///   CR or NUL in a text or HTML, `{{code}}` missing or repeated in the text or HTML of a code kind, `{{code}}`
    ///   in a kind without one, `{{email}}` in the plain text of a code kind, and digits that could break the code
    ///   guarantee (see ``MailTemplates``); at `email.codeLength` when it is not 6–10; at `email.appName` for CR,
    ///   LF or NUL in it.
    public static func parse(
        _ section: JSONObject, codeLength: Int, appName: String
    ) throws(MailConfigurationError) -> MailTemplates {
        guard (6...10).contains(codeLength) else {
            throw MailConfigurationError(path: "email.codeLength", reason: "must be 6–10 (digits in a code)")
        }
        var templates = english.templates
        for member in section {
            let path = "email.templates.\(member.name)"
            guard let kind = MailKind(rawValue: member.name) else {
                let kinds = MailKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw MailConfigurationError(
                    path: path, reason: "unknown template kind \(member.name) (kinds: \(kinds))")
            }
            if member.value == .null { continue }
            guard case .object(let object) = member.value else {
                throw MailConfigurationError(path: path, reason: "expected an object with subject, text and html")
            }
            templates[kind] = try template(object, path: path, defaults: englishTexts[kind])
        }
        let parsed = MailTemplates(templates: templates, codeLength: codeLength)
        try parsed.check(appName: appName)
        return parsed
    }

    /// Checks every kind against `appName` (the one rendering will use) and the code length.
    ///
    /// - Throws: as ``parse(_:codeLength:appName:)``.
    func check(appName: String) throws(MailConfigurationError) {
        guard !HeaderText.hasControlCharacter(appName) else {
            throw MailConfigurationError(path: "email.appName", reason: "CR, LF or NUL refused (it goes into headers)")
        }
        for length in codeLength.map({ [$0] }) ?? Array(6...10) {
            if DigitRuns.runs(in: appName).contains(where: { $0.unicodeScalars.count >= length }) {
                throw MailConfigurationError(
                    path: "email.appName",
                    reason: "a run of \(length) or more digits: the code must be the only one in a message")
            }
            for kind in MailKind.allCases {
                guard let template = templates[kind] else { continue }
                try template.check(
                    kind, path: "email.templates.\(kind.rawValue)", appName: appName, codeLength: length)
            }
        }
    }

    private static func template(
        _ object: JSONObject, path: String, defaults: (subject: String, text: String)?
    ) throws(MailConfigurationError) -> MailTemplate {
        for member in object where !MailTemplate.members.contains(member.name) {
            throw MailConfigurationError(
                path: "\(path).\(member.name)", reason: "unknown member \(member.name) (members: subject, text, html)")
        }
        func text(_ name: String, default fallback: String?) throws(MailConfigurationError) -> TemplateText? {
            let at = "\(path).\(name)"
            var string = fallback
            if let value = object[name], value != .null {
                guard case .string(let given) = value else {
                    throw MailConfigurationError(path: at, reason: "expected a string")
                }
                guard !given.isEmpty else { throw MailConfigurationError(path: at, reason: "must not be empty") }
                let refused: [UInt8] = name == "subject" ? [0x0D, 0x0A, 0x00] : [0x0D, 0x00]
                if given.utf8.contains(where: refused.contains) {
                    throw MailConfigurationError(
                        path: at,
                        reason: name == "subject"
                            ? "CR, LF or NUL refused: a subject is one header line"
                            : "CR or NUL refused: lines end with \\n")
                }
                string = name == "subject" ? given : MailTemplate.withFinalLineBreak(given)
            }
            guard let string else { return nil }
            do {
                return try TemplateText(parsing: string)
            } catch {
                throw MailConfigurationError(path: at, reason: error.reason)
            }
        }
        return MailTemplate(
            subject: try text("subject", default: defaults?.subject) ?? TemplateText(),
            text: try text("text", default: defaults?.text) ?? TemplateText(),
            html: try text("html", default: nil))
    }
}
