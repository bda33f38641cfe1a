import Cryptography
import StrictJSON
import Testing
import WebAuthn

@Suite("CollectedClientData and the credential readers")
struct CeremonyInputTests {
    @Test("client data keeps type, challenge, origin and Android's extras; unknown members are ignored")
    func clientData() throws {
        let bytes = Array(
            #"{"type":"webauthn.get","challenge":"AQID","origin":"android:apk-key-hash:abc","crossOrigin":false,"androidPackageName":"com.example.app","other":{"x":1}}"#
                .utf8)
        let data = try CollectedClientData(bytes)
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == [1, 2, 3])
        #expect(data.origin == "android:apk-key-hash:abc")
        #expect(!data.crossOrigin && data.topOrigin == nil)
        #expect(data.androidPackageName == "com.example.app")
        let padded = try CollectedClientData(
            Array(#"{"type":"t","challenge":"AQ==","origin":"o","topOrigin":"x"}"#.utf8))
        #expect(padded.challenge == [1] && padded.topOrigin == "x")
    }

    @Test(
        "client data that is not JSON, not an object, lacks a member, has a bad challenge or is over 4 KiB is malformed",
        arguments: [
            "", "{", "[]", #"{"challenge":"AQID","origin":"o"}"#, #"{"type":1,"challenge":"AQID","origin":"o"}"#,
            #"{"type":"t","challenge":"A*ID","origin":"o"}"#, #"{"type":"t","challenge":"AQID"}"#,
            #"{"type":"t","challenge":"AQID","origin":"o","crossOrigin":"no"}"#,
            #"{"type":"t","challenge":"AQID","origin":"o","type":"u"}"#,
            #"{"type":"t","challenge":"AQID","origin":"o","x":""# + String(repeating: "a", count: 4_096) + #""}"#,
        ])
    func malformedClientData(text: String) {
        #expect(throws: WebAuthnError.self) { try CollectedClientData(Array(text.utf8)) }
    }

    @Test("a registration reads with padded base64url, transports and ignored Level 3 extras")
    func registration() throws {
        let credential = try SoftwareCredential()
        guard case .object(var object) = try credential.registrationJSON(challenge: [1]),
            case .object(var response) = object["response"]
        else { throw WebAuthnError.malformed("fixture") }
        object["rawId"] = .string(Base64URL.encode(credential.credentialID) + "==")
        response["publicKeyAlgorithm"] = -7
        response["authenticatorData"] = "ignored"
        object["response"] = .object(response)
        object["clientExtensionResults"] = ["credProps": ["rk": true]]
        let parsed = try RegistrationCredential(json: .object(object))
        #expect(parsed.rawID == credential.credentialID)
        #expect(parsed.transports == ["internal", "hybrid"])
    }

    @Test("a registration member missing, mistyped, not base64url or over its cap is malformed")
    func malformedRegistration() throws {
        let valid = try SoftwareCredential().registrationJSON(challenge: [1])
        let changes: [(String, String?, JSONValue?)] = [
            ("type", nil, "password"), ("rawId", nil, 5), ("rawId", nil, "a*b"), ("id", nil, nil),
            ("rawId", nil, .string(String(repeating: "A", count: 5_500))), ("response", nil, "x"),
            ("response", "clientDataJSON", nil), ("response", "attestationObject", "**"),
            ("response", "transports", "usb"), ("response", "transports", [1]),
            ("response", "transports", .array(Array(repeating: "usb", count: 9))),
            ("response", "transports", [.string(String(repeating: "u", count: 33))]),
            ("response", "attestationObject", .string(String(repeating: "A", count: 90_000))),
        ]
        for (member, inner, value) in changes {
            let changed = Self.changing(valid, member, inner, value)
            #expect(throws: WebAuthnError.self, "\(member).\(inner ?? "")") {
                try RegistrationCredential(json: changed)
            }
        }
        #expect(throws: WebAuthnError.self) { try RegistrationCredential(json: "credential") }
    }

    @Test("an assertion reads a null user handle as none; caps and types are enforced")
    func assertion() throws {
        let valid = try SoftwareCredential().assertionJSON(challenge: [1], userHandle: [1, 2])
        #expect(try AuthenticationCredential(json: valid).userHandle == [1, 2])
        let nullHandle = Self.changing(valid, "response", "userHandle", .null)
        #expect(try AuthenticationCredential(json: nullHandle).userHandle == nil)
        let changes: [(String, String?, JSONValue?)] = [
            ("response", "signature", nil), ("response", "authenticatorData", 1),
            ("response", "userHandle", .string(Base64URL.encode(Array(repeating: 1, count: 65)))),
            ("response", "signature", .string(Base64URL.encode(Array(repeating: 1, count: 1_025)))),
            ("response", "authenticatorData", .string(Base64URL.encode(Array(repeating: 1, count: 16_385)))),
        ]
        for (member, inner, value) in changes {
            #expect(throws: WebAuthnError.self, "\(inner ?? member)") {
                try AuthenticationCredential(json: Self.changing(valid, member, inner, value))
            }
        }
    }

    /// `json` with `member` (or `member.inner`) set to `value`, or removed for nil.
    static func changing(_ json: JSONValue, _ member: String, _ inner: String?, _ value: JSONValue?) -> JSONValue {
        guard case .object(var object) = json else { return json }
        if let inner, case .object(var nested) = object[member] {
            nested[inner] = value
            object[member] = .object(nested)
        } else {
            object[member] = value
        }
        return .object(object)
    }
}
