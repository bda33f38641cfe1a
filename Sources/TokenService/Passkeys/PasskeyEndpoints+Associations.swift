import HTTPServer
import Logging

extension PasskeyEndpoints {
    /// `GET /.well-known/apple-app-site-association` → `{"webcredentials":{"apps":[…]}}` from `passkeys.appleAppIds`
    /// (Apple's CDN fetches it from the RP id's host; no redirect); 404 while passkeys are off or no app is set.
    func appleAppSiteAssociation(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        guard let appleAssociation else { throw .notFound }
        return Self.association(appleAssociation)
    }

    /// `GET /.well-known/assetlinks.json` → the Digital Asset Links statements of `passkeys.androidApps` (relation
    /// `delegate_permission/common.get_login_creds`); 404 while passkeys are off or no app is set.
    func assetLinks(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        guard let androidAssociation else { throw .notFound }
        return Self.association(androidAssociation)
    }

    private static func association(_ bytes: [UInt8]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "public, max-age=3600")
        return .json(bytes: bytes, headers: headers)
    }
}
