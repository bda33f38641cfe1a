import AuthAPI
import HTTPServer
import Logging
import Mail
import Store

extension AccountEndpoints {
    /// `POST /auth/account/deletion` `{"email"}` (JSON or form) → `202 {}` whether or not an account has the
    /// address: as the password reset, the per-address limits count every request and a limited one gets the same
    /// answer without a message; an unknown or disabled address gets a decoy (the same work and one durable
    /// write, nothing sent). An active account's address gets a `deletion` code. 503 when email is off.
    func requestDeletion(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        try await requestCode(try EmailRequest(formOrJSONBody: request).email, request, context)
        return EmailFlows.accepted
    }

    /// `POST /auth/account/deletion/confirm` `{"email", "code"}` (JSON or form) → `200 {"deleted": true}`;
    /// `400 invalid_code` for a wrong, expired, used or killed code (five wrong tries kill it, as for the other
    /// codes), or when the account is no longer the one the code was sent for. 503 when email is off.
    func confirmDeletion(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let body = try AccountDeletionConfirmRequest(body: request)
        try await deleteWithCode(email: body.email, code: body.code, request, context)
        return Self.deleted
    }

    /// Queues a `deletion` code to `rawEmail` (or a decoy), as ``requestDeletion(_:_:)`` describes; shared with
    /// the page.
    func requestCode(_ rawEmail: String, _ request: HTTPRequest, _ context: RequestContext) async throws {
        _ = try email.mail()
        try await auth.limitAddress(request)
        let address = try EmailFlows.address(rawEmail)
        guard try await email.sendLimit(address, purpose: .deletion) == nil else { return }
        let user = try await email.findAccount(byEmail: address)
        let active = user.map { !$0.isDisabled } ?? false
        try await email.issueQuietly(
            .deletion, kind: .deletion, userID: user?.id, email: address, context: context, decoy: !active)
    }

    /// Redeems a `deletion` code of `rawEmail` and deletes its account (`email_code`), as
    /// ``confirmDeletion(_:_:)`` describes; shared with the page.
    func deleteWithCode(
        email rawEmail: String, code: String, _ request: HTTPRequest, _ context: RequestContext
    ) async throws {
        _ = try email.mail()
        try await auth.limitAddress(request)
        let address = try EmailFlows.address(rawEmail)
        let redeemed = try await email.redeem(.deletion, subject: address, code: code)
        let found = try await email.findAccount(byEmail: address)
        // The account must still be the one the code was issued for, and active.
        guard let user = found, user.id == redeemed.userID, !user.isDisabled else { throw ServiceError.invalidCode }
        context.accessLogMetadata["user.id"] = .string(user.id)
        do {
            _ = try await deletion.delete(userID: user.id, method: .emailCode)
        } catch .notFound {
            throw ServiceError.invalidCode
        }
    }
}
