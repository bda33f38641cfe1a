import AuthAPI
import Foundation
import Testing

@Suite("AuthAPI browser sign-in wire types")
struct OAuthWireTypesTests {
    @Test("the token request uses RFC 6749's snake_case names and round-trips")
    func tokenRequestKeys() throws {
        let request = AuthorizationCodeTokenRequest(code: "c", codeVerifier: "v", redirectURI: "com.example.app:/cb")
        let data = try JSONEncoder().encode(request)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(
            json == [
                "grant_type": "authorization_code", "code": "c", "code_verifier": "v",
                "redirect_uri": "com.example.app:/cb",
            ])
        #expect(try JSONDecoder().decode(AuthorizationCodeTokenRequest.self, from: data) == request)
    }

    @Test("the OAuth error body is {error, error_description} and unsupported_grant_type is a known code")
    func errorBody() throws {
        let data = try JSONEncoder().encode(
            OAuthErrorBody(error: .unsupportedGrantType, errorDescription: "grant_type must be authorization_code."))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(json["error"] == "unsupported_grant_type")
        #expect(json["error_description"] == "grant_type must be authorization_code.")
        #expect(Set(json.keys) == ["error", "error_description"])
        #expect(ErrorCode.allKnown.contains(.unsupportedGrantType))
        let decoded = try JSONDecoder().decode(
            OAuthErrorBody.self, from: Data(#"{"error":"invalid_grant","error_description":"x"}"#.utf8))
        #expect(decoded.error == .invalidGrant)
    }
}
