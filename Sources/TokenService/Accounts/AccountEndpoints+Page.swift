import HTTPServer
import Logging
import Mail

extension AccountEndpoints {
    /// The page, titled with `email.appName`.
    var page: DeletionPage { DeletionPage(appName: email.settings.mail?.appName ?? "tokenvend") }

    /// `GET /account/delete`: the form for the address (step 1); when email is off, the page says the deletion
    /// by email is unavailable (503).
    func showDeletionPage(_ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse {
        do {
            _ = try email.mail()
        } catch {
            return errorPage(error, step: .unavailable, at: .page)
        }
        return page.response(.email(prefilled: ""), at: .page)
    }

    /// `POST /account/delete` with the form's `email`: a code is requested as at `POST /auth/account/deletion`
    /// (the same enumeration-safe answer for every address) and the form for the code follows (step 2); an
    /// address that is not valid, a rate limit or email being off show the address form again with the reason.
    func postDeletionPage(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        var typed = ""
        do {
            typed = try FormOrJSONBody.strings(request, names: ["email"])[0]
            try await requestCode(typed, request, context)
        } catch let error as ServiceError {
            return errorPage(error, step: .email(prefilled: typed), at: .page)
        }
        return page.response(.code(email: typed), at: .page)
    }

    /// `POST /account/delete/confirm` with the form's `email` and `code`: as `POST /auth/account/deletion/confirm`;
    /// the page says the account is deleted (step 3), or shows the code form again with the reason.
    func postDeletionConfirmPage(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        var typed = ""
        do {
            let values = try FormOrJSONBody.strings(request, names: ["email", "code"])
            typed = values[0]
            try await deleteWithCode(email: values[0], code: values[1], request, context)
        } catch let error as ServiceError {
            // Without an address the code form has nothing to send: start again.
            let step: DeletionPage.Step = typed.isEmpty ? .email(prefilled: "") : .code(email: typed)
            return errorPage(error, step: step, at: .confirm)
        }
        return page.response(.deleted, at: .confirm)
    }

    /// `step` with `error`'s message, status and headers (`Retry-After` on 429 and 503).
    private func errorPage(_ error: ServiceError, step: DeletionPage.Step, at location: DeletionPage.Location)
        -> HTTPResponse
    {
        page.response(step, at: location, error: error.message, status: error.status, extraHeaders: error.headers)
    }
}
