import Configuration
package import Mail
import StrictJSON

extension TokenServiceConfiguration {
    /// Email codes and their delivery (`email.*`): the mail settings the `Mail` module reads from its own section
    /// (`MailConfiguration`: transport, SMTP, sender, templates) and the code policy this service enforces.
    public struct Email: Sendable, Equatable {
        /// The transport, sender and templates, as `Mail` reads them from the `email` section. Default: `Mail`'s
        /// own defaults (the `file` transport into `data/outbox`, `tokenvend <no-reply@localhost>`); nil only if
        /// those could not be built, and then the email endpoints answer 503 as with `email.transport` `off`.
        package var mail: MailConfiguration?
        /// Digits in a code (`email.codeLength`, 6–10). Default: 6.
        public var codeLength = 6
        /// How long a code is accepted, in seconds (`email.codeLifetimeSeconds`, 60–86400). Default: 600.
        public var codeLifetimeSeconds = 600
        /// Messages to one address in any minute (`email.sendsPerAddressPerMinute`). Default: 1.
        public var sendsPerAddressPerMinute = 1
        /// Messages to one address in any hour (`email.sendsPerAddressPerHour`). Default: 5.
        public var sendsPerAddressPerHour = 5
        /// Whether `POST /auth/email/code` signs in (and up) with a code (`email.signInCodes`). Default: false.
        public var signInCodes = false
        /// The `email.templates` section as configured (the highest layer that gives it), parsed once the code
        /// length and app name are known; nil for the English defaults.
        var templatesSection: JSONObject?

        /// The built-in defaults; `mail` is `Mail`'s own, what an empty `email` section reads as.
        public init() {
            mail = try? MailConfiguration(
                reader: ConfigReader(provider: InMemoryProvider(values: [:])), smtpPassword: nil,
                templates: .english)
        }

        /// Whether messages are delivered (`email.transport` is `smtp` or `file`).
        public var isEnabled: Bool {
            guard let mail, case .off = mail.transport else { return mail != nil }
            return false
        }

        /// The transport's name for logs: `smtp`, `file` or `off`.
        public var transportName: String {
            switch mail?.transport {
            case .smtp?: "smtp"
            case .file?: "file"
            case .off?, nil: "off"
            }
        }

        /// Equal code policy and equal mail settings as far as they can be compared (transport kind, sender,
        /// app name); templates are compared as configured.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.codeLength == rhs.codeLength && lhs.codeLifetimeSeconds == rhs.codeLifetimeSeconds
                && lhs.sendsPerAddressPerMinute == rhs.sendsPerAddressPerMinute
                && lhs.sendsPerAddressPerHour == rhs.sendsPerAddressPerHour && lhs.signInCodes == rhs.signInCodes
                && lhs.templatesSection == rhs.templatesSection && lhs.transportName == rhs.transportName
                && lhs.mail?.from == rhs.mail?.from && lhs.mail?.appName == rhs.mail?.appName
        }
    }
}

extension TokenServiceConfiguration.Email {
    /// The code policy keys of `email.*` (the loader reads the mail settings later: ``loadMail(reader:)``).
    init(reader: ConfigReader) {
        self.init()
        codeLength = reader.int(forKey: "codeLength") ?? codeLength
        codeLifetimeSeconds = reader.int(forKey: "codeLifetimeSeconds") ?? codeLifetimeSeconds
        sendsPerAddressPerMinute = reader.int(forKey: "sendsPerAddressPerMinute") ?? sendsPerAddressPerMinute
        sendsPerAddressPerHour = reader.int(forKey: "sendsPerAddressPerHour") ?? sendsPerAddressPerHour
        signInCodes = reader.bool(forKey: "signInCodes") ?? signInCodes
    }

    /// Reads the mail settings from the `email` scope: the templates section parsed by `Mail` with the final
    /// code length and app name, the SMTP password (`email.smtp.password`, or the file of
    /// `email.smtp.passwordFile`, already read into it by the loader), then `MailConfiguration`.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the key under `email` (CR or LF in `email.from` or a
    ///   template's subject, plain SMTP to a remote host without `email.smtp.allowInsecure`, …).
    mutating func loadMail(reader: ConfigReader) throws(ConfigurationError) {
        let appName = reader.string(forKey: "appName") ?? "tokenvend"
        var templates = MailTemplates.english
        do throws(MailConfigurationError) {
            if let section = templatesSection {
                templates = try MailTemplates.parse(section, codeLength: codeLength, appName: appName)
            }
            mail = try MailConfiguration(
                reader: reader, smtpPassword: reader.optionalString(forKey: "smtp.password", isSecret: true),
                templates: templates)
        } catch {
            throw Self.configurationError(error)
        }
    }

    /// A `Mail` configuration error as the loader's one-line error, its path under `email`.
    static func configurationError(_ error: MailConfigurationError) -> ConfigurationError {
        let key = error.path.isEmpty ? "email" : (error.path.hasPrefix("email") ? error.path : "email.\(error.path)")
        return .invalidValue(key: key, source: "", reason: error.reason)
    }
}

extension ConfigurationSection {
    /// `email.templates`: `{"<kind>": {"subject", "text", "html"?}}`, kept as configured and parsed by `Mail` once
    /// the code length and the app name are known (``TokenServiceConfiguration/Email/loadMail(reader:)``).
    static func emailTemplates(_ value: JSONValue, check: ConfigurationValueCheck) throws(ConfigurationError) -> Self {
        switch value {
        case .null:
            return ConfigurationSection { $0.email.templatesSection = nil }
        case .object(let section):
            return ConfigurationSection { $0.email.templatesSection = section }
        default:
            throw check.fail(
                #"expected an object of templates such as {"password_reset": {"subject": "…", "text": "…"}}, got "#
                    + value.typeDescription)
        }
    }
}

extension TokenServiceConfiguration.Email: CustomStringConvertible, CustomDebugStringConvertible {
    /// The transport and the code policy; never the SMTP password, URL credentials or templates.
    public var description: String {
        "Email(transport: \(transportName), codeLength: \(codeLength), codeLifetimeSeconds: \(codeLifetimeSeconds), "
            + "sendsPerAddressPerMinute: \(sendsPerAddressPerMinute), sendsPerAddressPerHour: "
            + "\(sendsPerAddressPerHour), signInCodes: \(signInCodes))"
    }

    /// ``description``.
    public var debugDescription: String { description }
}
