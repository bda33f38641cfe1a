import AuthAPI
import Foundation
import Testing

@testable import TokenClientCore

/// The client reads the answers for an account made from an identity without an email (issue 17).
@Suite struct AccountWithoutEmailDecodingTests {
    static let ok = TransportResponse(statusCode: 200, url: URL(fileURLWithPath: "/"))

    @Test("a login answer and /auth/me without email decode, with email nil")
    func decodesWithoutEmail() throws {
        let response = Self.ok
        let login = try WireCoding.decodeSuccess(
            TokenResponse.self,
            data: Data(
                #"{"accessToken":"a.b.c","refreshToken":"r","tokenType":"Bearer","expiresIn":900,"user":{"id":"u-4","role":"user","tenantId":null}}"#
                    .utf8),
            response: response)
        #expect(login.user == User(id: "u-4", email: nil, role: "user", tenantId: nil))
        let me = try WireCoding.decodeSuccess(
            MeResponse.self, data: Data(#"{"sub":"u-4","role":"user","tenantId":null}"#.utf8), response: response)
        #expect(me.email == nil && me.sub == "u-4")
        // An email that is not a string is still an invalid response.
        #expect(throws: TokenClientError.invalidResponse) {
            try WireCoding.decodeSuccess(
                MeResponse.self, data: Data(#"{"sub":"u-4","email":5,"role":"user","tenantId":null}"#.utf8),
                response: response)
        }
    }
}
