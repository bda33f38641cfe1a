import AuthAPI
import Foundation
import Testing

@testable import TokenService

@Suite struct TokenResponseSerializationTests {
    @Test("the hand-written token body decodes to the same TokenResponse, optionals omitted, tenantId null")
    func roundTrips() throws {
        let user = User(id: "u-1", email: "a\"b\\c/d@example.com", role: "user", tenantId: nil)
        let bearer = TokenResponse.bearer(accessToken: "at.x.y", refreshToken: "rt", expiresIn: 900, user: user)
        let cookie = TokenResponse(expiresIn: 900, user: User(id: "u-2", email: "e@example.com", tenantId: "t-1"))
        for response in [bearer, cookie] {
            let bytes = AuthService.serialized(response)
            #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(bytes)) == response)
        }
        let text = String(decoding: AuthService.serialized(cookie), as: UTF8.self)
        #expect(
            text == #"{"expiresIn":900,"user":{"id":"u-2","email":"e@example.com","role":"user","tenantId":"t-1"}}"#)
        let bearerText = String(decoding: AuthService.serialized(bearer), as: UTF8.self)
        #expect(bearerText.hasPrefix(#"{"accessToken":"at.x.y","refreshToken":"rt","tokenType":"Bearer","#))
        #expect(bearerText.hasSuffix(#""tenantId":null}}"#))
    }
}
