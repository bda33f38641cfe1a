import FoundationEssentials
import Logging
import Mail
import Store

extension Components {
    /// The email endpoints and this instance's outbox sender, keyed from the refresh-token secret
    /// (`EmailCodeKeys`); logs which transport delivers, and warns that `file` sends nothing. The sender runs the
    /// email job when `email.transport` is not `off` and the revocation job when `apple` is given (a provider
    /// configures Sign in with Apple's REST API); nil when it has neither.
    static func emailFlows(
        _ configuration: TokenServiceConfiguration, backend: any StoreBackend, auth: AuthService,
        refreshSecret: [UInt8], apple: AppleTokens?, metrics: ServiceMetrics, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) throws -> (EmailFlows, OutboxSender?) {
        let settings = configuration.email
        let keys = try EmailCodeKeys(secret: refreshSecret)
        var jobs: [any OutboxJob] = []
        if settings.isEnabled, let mail = settings.mail, let transport = mail.makeTransport() {
            jobs.append(
                EmailOutboxJob(
                    transport: transport, keys: keys, envelopeFrom: mail.from.address, metrics: metrics.email))
            switch mail.transport {
            case .smtp(let smtp):
                logger.info(
                    "email transport", metadata: ["email.transport": "smtp", "email.smtp.url": "\(smtp.url)"])
            case .file(let directory):
                logger.warning(
                    "email transport is file: messages are written as .eml files, not sent",
                    metadata: ["email.transport": "file", "email.fileDirectory": "\(directory)"])
            case .off:
                break
            }
        } else {
            logger.info("email transport is off: the email endpoints answer 503", metadata: ["email.transport": "off"])
        }
        if let apple { jobs.append(RevocationOutboxJob(apple: apple)) }
        let sender =
            jobs.isEmpty
            ? nil : OutboxSender(store: backend.email, jobs: jobs, metrics: metrics.email, logger: logger, now: now)
        let flows = EmailFlows(
            auth: auth, store: backend.email, settings: settings, keys: keys,
            sendsPerMinute: limiter(
                backend, bucket: "email-sends-minute", limit: settings.sendsPerAddressPerMinute, windowSeconds: 60,
                now: now),
            sendsPerHour: limiter(
                backend, bucket: "email-sends-hour", limit: settings.sendsPerAddressPerHour, windowSeconds: 3_600,
                now: now),
            sender: sender, metrics: metrics.email)
        return (flows, sender)
    }
}
