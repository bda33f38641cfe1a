import AuthAPI
import HTTPServer
import Logging
import Mail
import Store

extension EmailFlows {
    /// `POST /auth/email/verification` (bearer) → `202 {}`: a `verification` code to the account's email. An
    /// already verified email: `202 {}` and no mail; an account without an email: 400; over a per-address limit:
    /// 429 with `Retry-After`.
    func requestVerification(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let caller = try await signedIn(request, context)
        let user = try await account(caller.userID)
        guard let email = user.email else {
            throw ServiceError.invalidRequest("The account has no email address.")
        }
        if user.isEmailVerified { return Self.accepted }
        if let seconds = try await sendLimit(email, purpose: .verification) {
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
        try await issue(.verification, kind: .verification, subject: user.id, userID: user.id, email: email)
        return Self.accepted
    }

    /// `POST /auth/email/verification/confirm` (bearer) `{"code"}` → `200 {"user"}` with `emailVerified: true`;
    /// `400 invalid_code` for a wrong, expired or used code, or one sent to an address the account no longer has.
    func confirmVerification(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let (code, user) = try await redeemCallersCode(.verification, request, context)
        guard user.email == code.email else { throw ServiceError.invalidCode }
        do {
            let verified = try await auth.users.markEmailVerified(
                userID: user.id, source: .emailCode, now: auth.now())
            return Self.userResponse(verified)
        } catch {
            throw AuthService.mapStore(error)
        }
    }
}
