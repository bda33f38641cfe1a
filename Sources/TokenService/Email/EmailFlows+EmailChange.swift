import AuthAPI
import HTTPServer
import Logging
import Mail
import Store

extension EmailFlows {
    /// `POST /auth/email/change` (bearer) `{"newEmail", "currentPassword"?}` → `202 {}`, an `email_change` code to
    /// the new address. `currentPassword` is required when the account has a password (a wrong one is `401
    /// invalid_credentials`, counted as a failed login); `409 email_taken` when another account has the address;
    /// 429 with `Retry-After` over a per-address limit.
    func requestEmailChange(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let caller = try await signedIn(request, context)
        let body = try EmailChangeRequest(body: request)
        let newEmail = try Self.address(body.newEmail)
        let user = try await account(caller.userID)
        if user.passwordHash != nil {
            guard let current = body.currentPassword else {
                throw ServiceError.invalidRequest("currentPassword is required for an account with a password.")
            }
            _ = try await auth.checkCurrentPassword(current, of: user)
        }
        guard newEmail != user.email else {
            throw ServiceError.invalidRequest("This is the account's email address already.")
        }
        let holder = try await findAccount(byEmail: newEmail)
        guard holder == nil else { throw ServiceError.emailTaken }
        if let seconds = try await sendLimit(newEmail, purpose: .emailChange) {
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
        do {
            try await issue(.emailChange, kind: .emailChange, subject: user.id, userID: user.id, email: newEmail)
        } catch let error as ServiceError {
            throw error
        } catch {
            context.logger.info(
                "email change refused: the address cannot receive mail", metadata: ["error": "\(error)"])
            throw ServiceError.invalidRequest("The email address is not valid.")
        }
        return Self.accepted
    }

    /// `POST /auth/email/change/confirm` (bearer) `{"code"}` → `200 {"user"}` with the new, verified email; an
    /// `email_changed_notice` goes to the old address. `400 invalid_code`; `409 email_taken` when another account
    /// took the address meanwhile.
    func confirmEmailChange(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let (code, user) = try await redeemCallersCode(.emailChange, request, context)
        let changed: Store.User
        do {
            changed = try await auth.users.changeEmail(userID: user.id, to: code.email, now: auth.now())
        } catch .emailTaken {
            throw ServiceError.emailTaken
        } catch {
            throw AuthService.mapStore(error)
        }
        if let old = user.email, old != code.email {
            do {
                try await notify(.emailChangedNotice, to: old, about: code.email)
            } catch {
                // The change stands; only the notice is missing, which the log says.
                context.logger.warning("email change notice not queued", metadata: ["error": "\(error)"])
            }
        }
        return Self.userResponse(changed)
    }
}
