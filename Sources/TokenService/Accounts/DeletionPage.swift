import Cryptography
import FoundationEssentials
import HTTPServer
import Mail

/// The HTML of the page at `GET /account/delete` (the link an operator gives Google Play): plain forms that a
/// browser without JavaScript completes, no third-party asset, one inline style allowed by its hash.
///
/// Every value that came from a request (the address typed in) is HTML-escaped; the messages are fixed texts.
/// The forms' actions are relative, so the page works behind a proxy that mounts tokenvend under a path prefix.
struct DeletionPage: Sendable {
    /// Where the document that holds a form was answered from, which fixes the forms' relative actions.
    enum Location: Sendable {
        /// `GET` or `POST /account/delete`.
        case page
        /// `POST /account/delete/confirm`.
        case confirm

        /// The relative URL of `/account/delete` from here.
        var pageAction: String { self == .page ? "delete" : "../delete" }
        /// The relative URL of `/account/delete/confirm` from here.
        var confirmAction: String { self == .page ? "delete/confirm" : "confirm" }
    }

    /// What the page shows.
    enum Step: Sendable, Equatable {
        /// The form for the address (step 1).
        case email(prefilled: String)
        /// The form for the code sent to the address (step 2).
        case code(email: String)
        /// The account is deleted (step 3).
        case deleted
        /// Nothing to fill in: the page cannot be used now (email is off).
        case unavailable
    }

    /// `email.appName`, in the title and the heading.
    let appName: String

    /// The one inline style.
    static let style = """
        body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}\
        label,input,button{display:block;font-size:1rem}input{width:100%;padding:.5rem;margin:.25rem 0 1rem;\
        box-sizing:border-box}button{padding:.5rem 1rem}.error{color:#a00;font-weight:bold}
        """

    /// The page's `Content-Security-Policy`: nothing but its own inline style (by hash) and forms posted to itself;
    /// no frame may embed it.
    static let contentSecurityPolicy: String = {
        var policy = "default-src 'none'; "
        if let digest = try? SHA256.hash(Array(style.utf8)) {
            policy += "style-src 'sha256-\(Data(digest).base64EncodedString())'; "
        }
        return policy + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }()

    /// The headers of every answer of the page.
    static var headers: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Security-Policy", value: contentSecurityPolicy)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Cache-Control", value: "no-store")
        return headers
    }

    /// The answer showing `step`, with an error message above it when `error` is set (then `status` is the
    /// error's).
    func response(
        _ step: Step, at location: Location, error: String? = nil, status: HTTPStatus = .ok,
        extraHeaders: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var headers = Self.headers
        for field in extraHeaders { headers.add(name: field.name, value: field.value) }
        return HTTPResponse(status: status, headers: headers, body: Array(html(step, at: location, error: error).utf8))
    }

    /// The document.
    func html(_ step: Step, at location: Location, error: String?) -> String {
        let title = "Delete your \(Self.escape(appName)) account"
        var body = ""
        if let error { body += "<p class=\"error\" role=\"alert\">\(Self.escape(error))</p>\n" }
        switch step {
        case .email(let prefilled):
            body += """
                <p>Enter the email address of your account. A code is sent to it; the code deletes the account.</p>
                <form method="post" action="\(location.pageAction)">
                <label for="email">Email address</label>
                <input id="email" name="email" type="email" autocomplete="email" required maxlength="320" \
                value="\(Self.escape(prefilled))">
                <button type="submit">Send the code</button>
                </form>

                """
        case .code(let email):
            body += """
                <p>If an account has the address <strong>\(Self.escape(email))</strong>, a code is on its way to it. \
                Enter the code to delete the account, its sign-ins and its data. This cannot be undone.</p>
                <form method="post" action="\(location.confirmAction)">
                <input type="hidden" name="email" value="\(Self.escape(email))">
                <label for="code">Code</label>
                <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required \
                maxlength="32">
                <button type="submit">Delete my account</button>
                </form>
                <p><a href="\(location.pageAction)">Use another address</a></p>

                """
        case .deleted:
            body += """
                <p>The account is deleted. Its sign-ins no longer work; you can sign up again with the same address.</p>

                """
        case .unavailable:
            break
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title)</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <main>
            <h1>\(title)</h1>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// `text` safe in HTML text and in a double- or single-quoted attribute value.
    static func escape(_ text: String) -> String { MailTemplates.escapeHTML(text) }
}
