import AuthAPI
import Foundation
import Testing

@testable import TokenClientCore

@Suite("Passkey JSON forms and base64url")
struct PasskeyJSONFormTests {
    /// `value` encoded with sorted keys, as text.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("base64url: RFC 4648 §10 vectors without padding, the URL alphabet, and every length round-trips")
    func base64URLVectors() {
        let vectors = [
            "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(Base64URL.decode(encoded) == bytes)
        }
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
    }

    @Test("base64url: padding is read only when whole; other alphabets, stray bits and impossible lengths are refused")
    func base64URLRefusals() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
        for bad in ["Zg=", "Z===", "Zm9v====", "=Zg", "Zg=a", "+/8", "Zm9v YmFy", "Z", "Zm9vY", "Zh", "Zm9", "é"] {
            #expect(Base64URL.decode(bad) == nil, "\(bad)")
        }
    }

    @Test("a registration from raw bytes encodes as RegistrationResponseJSON, member for member")
    func registrationEncoding() throws {
        let credential = PasskeyRegistrationCredential(
            credentialID: [0xfb, 0xff, 0x01, 0x02], clientDataJSON: Array(#"{"type":"webauthn.create"}"#.utf8),
            attestationObject: [0xa3, 0x63, 0x66, 0x6d, 0x74], transports: ["internal", "hybrid"],
            authenticatorAttachment: "platform")
        let expected =
            #"{"authenticatorAttachment":"platform","clientExtensionResults":{},"id":"-_8BAg","rawId":"-_8BAg","#
            + #""response":{"attestationObject":"o2NmbXQ","#
            + #""clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0","transports":["internal","hybrid"]},"#
            + #""type":"public-key"}"#
        #expect(try Self.json(credential) == expected)
        #expect(try JSONDecoder().decode(PasskeyRegistrationCredential.self, from: Data(expected.utf8)) == credential)
        let bare = PasskeyRegistrationCredential(credentialID: [1], clientDataJSON: [2], attestationObject: [3])
        #expect(
            try Self.json(bare)
                == #"{"clientExtensionResults":{},"id":"AQ","rawId":"AQ","response":{"attestationObject":"Aw","#
                + #""clientDataJSON":"Ag"},"type":"public-key"}"#)
    }

    @Test("an assertion from raw bytes encodes as AuthenticationResponseJSON; an empty user handle is left out")
    func assertionEncoding() throws {
        let assertion = PasskeyAssertionCredential(
            credentialID: [0x01, 0x02, 0x03], clientDataJSON: Array(#"{"type":"webauthn.get"}"#.utf8),
            authenticatorData: [0x49, 0x96, 0x0d], signature: [0x30, 0x45, 0x02, 0x20], userHandle: [0xff, 0xfe],
            authenticatorAttachment: "cross-platform")
        let expected =
            #"{"authenticatorAttachment":"cross-platform","clientExtensionResults":{},"id":"AQID","rawId":"AQID","#
            + #""response":{"authenticatorData":"SZYN","clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0","#
            + #""signature":"MEUCIA","userHandle":"__4"},"type":"public-key"}"#
        #expect(try Self.json(assertion) == expected)
        #expect(try JSONDecoder().decode(PasskeyAssertionCredential.self, from: Data(expected.utf8)) == assertion)
        for handle in [nil, [UInt8]()] {
            let anonymous = PasskeyAssertionCredential(
                credentialID: [1], clientDataJSON: [2], authenticatorData: [3], signature: [4], userHandle: handle)
            #expect(anonymous.response.userHandle == nil)
            #expect(try !Self.json(anonymous).contains("userHandle"))
        }
    }

    @Test("the Level 3 extras (authenticatorData, publicKey, publicKeyAlgorithm) and credProps round-trip")
    func levelThreeExtras() throws {
        let sent =
            #"{"authenticatorAttachment":"platform","clientExtensionResults":{"credProps":{"rk":true}},"id":"AQID","#
            + #""rawId":"AQID","response":{"attestationObject":"o2NmbXQ","authenticatorData":"SZYN","#
            + #""clientDataJSON":"e30","publicKey":"MFkwEwYHKoZIzj0CAQ","publicKeyAlgorithm":-7,"#
            + #""transports":["hybrid","internal"]},"type":"public-key"}"#
        let credential = try JSONDecoder().decode(PasskeyRegistrationCredential.self, from: Data(sent.utf8))
        #expect(credential.response.authenticatorData == "SZYN")
        #expect(credential.response.publicKey == "MFkwEwYHKoZIzj0CAQ")
        #expect(credential.response.publicKeyAlgorithm == -7)
        #expect(credential.clientExtensionResults.credProps?.rk == true)
        #expect(try Self.json(credential) == sent)
        let request = PasskeyRegistrationRequest(credential: credential, name: "Phone")
        let body = try Self.json(request)
        #expect(body.hasPrefix(#"{"credential":{"#) && body.hasSuffix(#"},"name":"Phone"}"#))
        #expect(try JSONDecoder().decode(PasskeyRegistrationRequest.self, from: Data(body.utf8)) == request)
        #expect(try Self.json(PasskeyClientExtensionResults()) == "{}")
    }

    @Test("creation options decode from the server's JSON; their parameters are the decoded bytes")
    func creationOptions() throws {
        let answer =
            #"{"challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","rp":{"id":"example.com","name":"Example"},"#
            + #""user":{"id":"aGFuZGxl","name":"ada@example.com","displayName":"ada@example.com"},"#
            + #""pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-8},"#
            + #"{"type":"public-key","alg":-257}],"excludeCredentials":[{"type":"public-key","id":"AQID","#
            + #""transports":["internal"]}],"authenticatorSelection":{"residentKey":"required","#
            + #""requireResidentKey":true,"userVerification":"required"},"attestation":"none","timeout":300000}"#
        let options = try JSONDecoder().decode(PasskeyCreationOptions.self, from: Data(answer.utf8))
        #expect(options.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
        #expect(options.timeout == 300_000)
        let parameters = try PasskeyCreationParameters(options)
        #expect(parameters.challenge == Array(0...31))
        #expect(parameters.userID == Array("handle".utf8))
        #expect(parameters.relyingPartyID == "example.com")
        #expect(parameters.userName == "ada@example.com" && parameters.userDisplayName == "ada@example.com")
        #expect(parameters.excludedCredentialIDs == [[1, 2, 3]])
        #expect(parameters.userVerification == "required")
        var broken = options
        broken.challenge = "not+base64url"
        #expect(throws: TokenClientError.invalidResponse) { try PasskeyCreationParameters(broken) }
        broken = options
        broken.user.id = ""
        #expect(throws: TokenClientError.invalidResponse) { try PasskeyCreationParameters(broken) }
        broken = options
        broken.excludeCredentials[0].id = "A"
        #expect(throws: TokenClientError.invalidResponse) { try PasskeyCreationParameters(broken) }
    }

    @Test("request options decode from the server's JSON; their parameters are the decoded bytes")
    func requestOptions() throws {
        let answer =
            #"{"challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","rpId":"example.com","#
            + #""userVerification":"preferred","timeout":300000,"allowCredentials":[]}"#
        let options = try JSONDecoder().decode(PasskeyRequestOptions.self, from: Data(answer.utf8))
        let parameters = try PasskeyRequestParameters(options)
        #expect(parameters.challenge == Array(0...31))
        #expect(parameters.relyingPartyID == "example.com")
        #expect(parameters.allowedCredentialIDs.isEmpty)
        #expect(parameters.userVerification == "preferred")
        var broken = options
        broken.challenge = ""
        #expect(throws: TokenClientError.invalidResponse) { try PasskeyRequestParameters(broken) }
        broken = options
        broken.allowCredentials = [PasskeyCredentialDescriptor(id: "a/b")]
        #expect(throws: TokenClientError.invalidResponse) { try PasskeyRequestParameters(broken) }
    }

    @Test("a passkey's description decodes with lastUsedAt null and encodes it as null")
    func passkeyInfo() throws {
        let text =
            #"{"backedUp":false,"createdAt":"2026-11-28T12:00:00Z","deviceType":"singleDevice","id":"AQID","#
            + #""lastUsedAt":null,"name":"Passkey"}"#
        let info = try JSONDecoder().decode(PasskeyInfo.self, from: Data(text.utf8))
        #expect(info.lastUsedAt == nil && info.deviceType == .singleDevice && !info.backedUp)
        #expect(try Self.json(info) == text)
        let list = try JSONDecoder().decode(PasskeyListResponse.self, from: Data(#"{"passkeys":[\#(text)]}"#.utf8))
        #expect(list.passkeys == [info])
    }
}
