/// One kind's template: subject, plain text and optional HTML, split at their placeholders.
struct MailTemplate: Sendable, Equatable {
    var subject: TemplateText
    var text: TemplateText
    var html: TemplateText?

    /// The member names of a `email.templates.<kind>` object.
    static let members = ["subject", "text", "html"]

    /// A part's text with a final `\n` (text and HTML parts end with a line break).
    static func withFinalLineBreak(_ text: String) -> String {
        text.hasSuffix("\n") ? text : text + "\n"
    }

    /// Checks the rules for `kind`, reporting at `path` (`email.templates.<kind>`); `appName` and `codeLength` are
    /// the configured ones.
    func check(_ kind: MailKind, path: String, appName: String, codeLength: Int) throws(MailConfigurationError) {
        let parts: [(String, TemplateText?)] = [("subject", subject), ("text", text), ("html", html)]
        for case (let member, let part?) in parts {
            let at = "\(path).\(member)"
            if !kind.carriesCode, part.count(.code) > 0 {
                throw MailConfigurationError(
                    path: at, reason: "{{code}} is not allowed: \(kind.rawValue) carries no code")
            }
            if kind.carriesCode, member != "subject", part.count(.code) != 1 {
                throw MailConfigurationError(
                    path: at, reason: "must contain {{code}} exactly once (found \(part.count(.code)))")
            }
        }
        guard kind.carriesCode else { return }
        if text.count(.email) > 0 {
            throw MailConfigurationError(
                path: "\(path).text",
                reason: "{{email}} is not allowed in the plain text of a message with a code: an address may hold "
                    + "a run of digits, and the code must be the only one")
        }
        if let problem = DigitRuns.problem(in: items(of: text, appName: appName), codeLength: codeLength) {
            throw MailConfigurationError(path: "\(path).text", reason: problem)
        }
    }

    /// The plain text as digit-run items, with `appName` written out.
    private func items(of text: TemplateText, appName: String) -> [DigitRuns.Item] {
        var items: [DigitRuns.Item] = []
        func literal(_ string: String) {
            items += string.unicodeScalars.map { DigitRuns.isDigit($0) ? .digit : .other }
        }
        for segment in text.segments {
            switch segment {
            case .literal(let string): literal(string)
            case .placeholder(.appName): literal(appName)
            case .placeholder(.code): items.append(.code)
            case .placeholder(.minutes): items.append(.minutes)
            case .placeholder(.email): items.append(.other)  // refused above for code kinds
            }
        }
        return items
    }
}
