import AuthAPI
import Foundation
import TokenClient

/// `POST /vend/<vendor>` of the fake: JWS tokens with `exp`, `iat`, `n` (a counter across vendors), `vendor`
/// and, for a `customerIds` parameter, `sub` = the ids.
extension FakeAuthServer {
    /// The fake user's customer ids for vended tokens.
    public static let customerIds = ["registered": user.id, "crm": "C-42"]

    /// Configures the `bloomreach-customer` vendor the Bloomreach provider and the README example call: one-hour
    /// tokens for a `customerIds` parameter.
    public func addBloomreachCustomerVendor() {
        configure { $0.vendors["bloomreach-customer"] = FakeVendor(ttl: 3600, parameters: ["customerIds"]) }
    }

    func vend(_ request: Recorded, vendor name: String) -> (Int, Data) {
        guard authorized(request) else { return Self.error(401, .invalidToken) }
        guard let vendor = state.withLock({ $0.vendors[name] }) else { return Self.error(404, .notFound) }
        if let failure = vendor.failure { return Self.error(failure.status, failure.code) }
        let text = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard
            let body = text.isEmpty
                ? [:] : (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: any Sendable]
        else { return Self.error(400, .invalidRequest) }
        if let undeclared = body.keys.sorted().first(where: { !vendor.parameters.contains($0) }) {
            return (400, Self.json(ErrorBody(error: .invalidRequest, message: "undeclared parameter \(undeclared)")))
        }
        let now = Int(clock.now.timeIntervalSince1970)
        var claims: [String: any Sendable] = ["iat": now, "exp": now + vendor.ttl, "vendor": name]
        if vendor.parameters.contains("customerIds") {
            let asked = body["customerIds"].map { $0 as? [String: String] } ?? Self.customerIds
            guard let ids = asked, !ids.isEmpty, ids.allSatisfy({ Self.customerIds[$0.key] == $0.value }) else {
                return Self.error(403, .insufficientScope)
            }
            claims["sub"] = ids
        }
        claims["n"] = state.withLock { state in
            state.vendIssued += 1
            return state.vendIssued
        }
        let token = Self.jws(claims)
        switch vendor.shape {
        case .token:
            let expiresAt = vendor.expiresAtOffset.map { Int64(now + vendor.ttl + $0) }
            return (200, Self.json(VendedToken(token: token, expiresIn: vendor.ttl, expiresAt: expiresAt)))
        case .liveKit(let serverURL):
            return (201, Self.json(LiveKitConnectionDetails(serverURL: serverURL, participantToken: token)))
        }
    }
}

extension FakeAuthServer {
    /// The payload of a compact JWS as a JSON object, unverified; `nil` when it is not one.
    public static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let payload = Data(base64Encoded: base64) else { return nil }
        return (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }
}
