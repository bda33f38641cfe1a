import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import Logging
import Mail
import Store

/// The email endpoints of issue 32 (verification, password reset and change, sign-in codes, email change) and
/// what they share: the code policy, the per-address send limits, and queuing a message with its code.
///
/// No request sends mail: a request that issues a code writes the code's keyed hash and the sealed message in one
/// transaction (`EmailStoring.issueCode`), answers, and wakes this instance's ``OutboxSender``. So a slow or
/// unreachable mail server never slows a request, and the answer of an enumeration-safe endpoint takes the same
/// path whether or not the address has an account.
struct EmailFlows: Sendable {
    /// The account and session machinery (address limit, hashing pool, sessions, the login body).
    let auth: AuthService
    let store: any EmailStoring
    /// `email.*`; its `mail` is nil or `off` when email is not available (every email endpoint answers 503).
    let settings: TokenServiceConfiguration.Email
    let keys: EmailCodeKeys
    /// `email.sendsPerAddressPerMinute` per normalised address.
    let sendsPerMinute: any RateLimiting
    /// `email.sendsPerAddressPerHour` per normalised address.
    let sendsPerHour: any RateLimiting
    /// This instance's sender, woken when a row is queued; nil when email is off.
    let sender: OutboxSender?
    let metrics: EmailMetrics

    /// Five wrong tries kill a code.
    static let maxAttempts = 5

    /// The `202 {}` of the endpoints that queue a message: one value, so a known and an unknown address get the
    /// same bytes and headers.
    static let accepted = HTTPResponse.json(status: HTTPStatus(code: 202), bytes: Array("{}".utf8), headers: .noStore)

    /// The mail settings, or 503 `unavailable` when `email.transport` is `off`.
    func mail() throws(ServiceError) -> MailConfiguration {
        guard settings.isEnabled, let mail = settings.mail else {
            throw .unavailable("Email is not enabled on this server.", retryAfter: 3_600)
        }
        return mail
    }

    /// The normalised address of a request body, or 400.
    static func address(_ raw: String) throws(ServiceError) -> String {
        guard let email = EmailAddress(raw) else { throw .invalidRequest("The email address is not valid.") }
        return email.value
    }

    /// Counts one send to `email` against both per-address limits.
    /// - Returns: nil when it fits, else the seconds until it would (`Retry-After`).
    /// - Throws: 503 when a shared counter store cannot answer.
    func sendLimit(_ email: String, purpose: EmailCodePurpose) async throws(ServiceError) -> Int? {
        for limiter in [sendsPerMinute, sendsPerHour] {
            let decision: RateLimiter.Decision
            do {
                decision = try await limiter.acquire(email)
            } catch {
                throw AuthService.rateLimitUnavailable(error)
            }
            if case .limited(let seconds) = decision {
                metrics.code(purpose, .limited)
                return seconds
            }
        }
        return nil
    }

    /// Makes a code, stores its hash and queues its message in one transaction, then wakes the sender.
    /// - Parameters:
    ///   - subject: whose code: the user id (verification, email change) or the normalised address.
    ///   - email: where the message goes.
    ///   - decoy: for an address without an active account at an enumeration-safe endpoint: the same work (a code
    ///     made, its message rendered and sealed, one durable write) so that the request costs what a known
    ///     address's costs, but the stored hash is that of a text no presented code can equal (codes are digits),
    ///     no account is named, and the message is dropped, never queued.
    /// - Throws: 503 when the store cannot take it; `MailError` for an address a message cannot carry.
    func issue(
        _ purpose: EmailCodePurpose, kind: MailKind, subject: String, userID: String?, email: String,
        decoy: Bool = false
    ) async throws {
        let mail = try mail()
        let code = try EmailCodeKeys.generateCode(length: settings.codeLength)
        let now = auth.now()
        let hash = try keys.hash(code: decoy ? Self.decoyCode : code, purpose: purpose, subject: subject)
        let record = EmailCode(
            purpose: purpose, subject: subject, hash: hash, userID: decoy ? nil : userID, email: email, createdAt: now,
            expiresAt: now.addingTimeInterval(Double(settings.codeLifetimeSeconds)))
        let message = try message(kind, to: email, code: code, mail: mail, now: now)
        do {
            try await store.issueCode(record, message: decoy ? nil : message)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard !decoy else { return }
        metrics.code(purpose, .issued)
        sender?.wake()
    }

    /// What a decoy code's stored hash is computed over: not digits, so no presented code matches it.
    static let decoyCode = "decoy"

    /// Queues a message that carries no code (`email_changed_notice`), then wakes the sender.
    func notify(_ kind: MailKind, to email: String, about address: String) async throws {
        let mail = try mail()
        let message = try message(kind, to: email, code: nil, mail: mail, now: auth.now(), shownEmail: address)
        do {
            try await store.enqueue(message)
        } catch {
            throw AuthService.mapStore(error)
        }
        sender?.wake()
    }

    /// The sealed RFC 5322 message of `kind` to `email`, as an outbox row.
    private func message(
        _ kind: MailKind, to email: String, code: String?, mail: MailConfiguration, now: Date,
        shownEmail: String? = nil
    ) throws -> OutboxMessage {
        let values = MailValues(
            code: code, minutes: max(1, settings.codeLifetimeSeconds / 60), appName: mail.appName,
            email: shownEmail ?? email)
        let id = UUID().uuidString.lowercased()
        let message = try MailMessage(
            from: mail.from, to: try Mailbox(email), content: try mail.templates.render(kind, values), date: now,
            messageID: id)
        return OutboxMessage(
            id: id, kind: kind.rawValue, recipient: email, body: try keys.seal(message.encoded(), id: id),
            createdAt: now)
    }

    /// Checks a presented code against the live one of `purpose` and `subject` (five wrong tries kill it).
    /// - Returns: the accepted code, deleted now.
    /// - Throws: 400 `invalid_code` for a wrong, expired, used or killed code (one answer for all), 503 when the
    ///   store cannot answer.
    func redeem(_ purpose: EmailCodePurpose, subject: String, code raw: String) async throws -> EmailCode {
        guard let code = EmailCodeKeys.presented(raw, length: settings.codeLength) else {
            throw ServiceError.invalidCode
        }
        let check: EmailCodeCheck
        do {
            check = try await store.redeemCode(
                purpose: purpose, subject: subject, hash: try keys.hash(code: code, purpose: purpose, subject: subject),
                maxAttempts: Self.maxAttempts, now: auth.now())
        } catch let error as StoreError {
            throw AuthService.mapStore(error)
        }
        switch check {
        case .accepted(let record):
            metrics.code(purpose, .accepted)
            return record
        case .rejected(let left):
            metrics.code(purpose, left == 0 ? .killed : .rejected)
            throw ServiceError.invalidCode
        case .missing:
            metrics.code(purpose, .missing)
            throw ServiceError.invalidCode
        }
    }

    /// The caller of an authenticated email endpoint: 503 when email is off (unless `needsMail` is false), the
    /// per-client-address limit, then the access token and its session; the user id goes to the access line.
    func signedIn(
        _ request: HTTPRequest, _ context: RequestContext, needsMail: Bool = true
    ) async throws -> Caller {
        if needsMail { _ = try mail() }
        try await auth.limitAddress(request)
        let caller = try await auth.authenticator.authenticate(request, now: auth.now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        return caller
    }

    /// The confirmations of the signed-in caller (`{"code"}`): the caller's code of `purpose` redeemed, and the
    /// caller's account.
    func redeemCallersCode(
        _ purpose: EmailCodePurpose, _ request: HTTPRequest, _ context: RequestContext
    ) async throws -> (code: EmailCode, user: Store.User) {
        let caller = try await signedIn(request, context)
        let body = try EmailCodeRequest(body: request)
        let code = try await redeem(purpose, subject: caller.userID, code: body.code)
        return (code, try await account(caller.userID))
    }

    /// The user with the normalised address `email`, or nil (503 when the store cannot answer).
    func findAccount(byEmail email: String) async throws -> Store.User? {
        do {
            return try await auth.users.find(byEmail: email)
        } catch {
            throw AuthService.mapStore(error)
        }
    }

    /// ``issue(_:kind:subject:userID:email:decoy:)`` for the enumeration-safe endpoints: an address a message
    /// cannot carry is logged and nothing is sent, so the answer stays the same `202 {}`. `decoy` for an address
    /// without an active account: the same work and write, nothing sent.
    func issueQuietly(
        _ purpose: EmailCodePurpose, kind: MailKind, userID: String?, email: String, context: RequestContext,
        decoy: Bool = false
    ) async throws {
        do {
            try await issue(purpose, kind: kind, subject: email, userID: userID, email: email, decoy: decoy)
        } catch let error as ServiceError {
            throw error
        } catch {
            context.logger.warning("email code not queued", metadata: ["error": "\(error)", "email.kind": "\(kind)"])
        }
    }

    /// The user of `userID`, or 401 when it is gone or disabled (its sessions are revoked with it anyway).
    func account(_ userID: String) async throws -> Store.User {
        let user: Store.User?
        do {
            user = try await auth.users.find(byID: userID)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard let user, !user.isDisabled else { throw ServiceError.invalidToken(presented: true) }
        return user
    }

    /// The `200 {"user"}` of the confirmations.
    static func userResponse(_ user: Store.User) -> HTTPResponse {
        .json(bytes: UserResponse(user: AuthService.wireUser(user)).jsonBytes(), headers: .noStore)
    }
}
