package import Configuration

extension MailConfiguration {
    /// Reads the `email` section from `reader` (scoped to `email`); errors name the full key (`email.smtp.url`).
    ///
    /// Keys, relative to the reader: `transport` (`smtp` | `file` | `off`), `smtp.url`, `smtp.username`,
    /// `smtp.caFile`, `smtp.allowInsecure` (bool), `from`, `appName`, `fileDirectory`. The password comes
    /// resolved (`smtp.password` or the file `smtp.passwordFile`, read by the caller) as `smtpPassword`, the
    /// templates parsed (``MailTemplates/parse(_:codeLength:appName:)``); they are checked again here against the
    /// `appName` read, so the code guarantee holds whatever they were parsed with. An empty string is an explicit
    /// unset.
    ///
    /// ```swift
    /// let mail = try MailConfiguration(reader: reader.scoped(to: "email"), smtpPassword: password, templates: t)
    /// ```
    /// - Throws: ``MailConfigurationError`` for CR, LF or NUL in any value, an unknown transport, `smtp` without
    ///   `smtp.url`, a URL that is not `smtp://host[:port]` or `smtps://host[:port]` (a path, a query or
    ///   credentials in it), a password without a username, a `from` that is not an address, and what
    ///   ``MailTemplates/parse(_:codeLength:appName:)`` refuses for `appName`.
    /// Package access on purpose: the optional readers used here fall back to the default on a value of the
    /// wrong type, which is safe only behind tokenvend's loader (`ConfigurationLoader`), whose providers hold
    /// values already checked against the key table.
    package init(reader: ConfigReader, smtpPassword: String?, templates: MailTemplates) throws(MailConfigurationError) {
        func string(_ key: String, isSecret: Bool = false) throws(MailConfigurationError) -> String? {
            guard let text = reader.string(forKey: ConfigKey(key), isSecret: isSecret), !text.isEmpty else {
                return nil
            }
            guard !HeaderText.hasControlCharacter(text) else {
                throw MailConfigurationError(path: "email.\(key)", reason: "CR, LF or NUL refused")
            }
            return text
        }
        let url = try string("smtp.url")
        let transportName = try string("transport") ?? (url == nil ? "file" : "smtp")
        let username = try string("smtp.username")
        let password = smtpPassword.flatMap { $0.isEmpty ? nil : $0 }
        if let password, HeaderText.hasControlCharacter(password) {
            throw MailConfigurationError(path: "email.smtp.password", reason: "CR, LF or NUL refused")
        }
        let caFile = try string("smtp.caFile")
        let allowInsecure = reader.bool(forKey: "smtp.allowInsecure") ?? false
        let directory = try string("fileDirectory") ?? Self.defaultFileDirectory
        let fromText = try string("from") ?? Self.defaultFrom
        let appName = try string("appName") ?? Self.defaultAppName

        let transport: Transport
        switch transportName {
        case "smtp":
            guard let url else {
                throw MailConfigurationError(
                    path: "email.smtp.url", reason: "required when email.transport is smtp (smtp:// or smtps://)")
            }
            do {
                _ = try SMTPURL(url, allowInsecure: allowInsecure)
            } catch {
                throw MailConfigurationError(path: "email.smtp.url", reason: error.reason)
            }
            if password != nil, username == nil {
                throw MailConfigurationError(
                    path: "email.smtp.username", reason: "required when a password is set (AUTH needs both)")
            }
            transport = .smtp(
                SMTPSettings(
                    url: url, username: username, password: password, caFile: caFile, allowInsecure: allowInsecure))
        case "file": transport = .file(directory: directory)
        case "off": transport = .off
        default:
            throw MailConfigurationError(path: "email.transport", reason: "expected smtp, file or off")
        }
        let from: Mailbox
        do {
            from = try Mailbox(fromText, field: "email.from")
        } catch {
            throw MailConfigurationError(path: "email.from", reason: "expected \"Name <addr@host>\" or addr@host")
        }
        try templates.check(appName: appName)
        self.init(transport: transport, from: from, appName: appName, templates: templates)
    }
}
