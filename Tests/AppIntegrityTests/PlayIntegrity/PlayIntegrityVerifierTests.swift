import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation
import StrictJSON
import Testing

@Suite("Play Integrity verdicts") struct PlayIntegrityVerifierTests {
    typealias Fixture = PlayIntegrityFixture

    /// The token the fake makes for a fresh challenge with `payload` merged over the valid verdict, verified.
    private func verify(
        payload: JSONObject = [:], wrongKey: FakePlayIntegrity.WrongKey? = nil, nonce: String? = nil,
        verifier: PlayIntegrityVerifier? = nil, now: Date = Date()
    ) async throws -> PlayIntegrityVerdict {
        let challenge = try Fixture.challenge()
        let token = try await Fixture.fake().token(
            nonce: nonce ?? challenge, packageName: Fixture.packageName, payload: payload, wrongKey: wrongKey)
        let resolved: PlayIntegrityVerifier
        if let verifier { resolved = verifier } else { resolved = try await Fixture.verifier() }
        return try resolved.verify(token, challenge: challenge, now: now)
    }

    /// The reason `verify` fails for.
    private func reason(
        payload: JSONObject = [:], wrongKey: FakePlayIntegrity.WrongKey? = nil, nonce: String? = nil,
        verifier: PlayIntegrityVerifier? = nil, now: Date = Date()
    ) async throws -> IntegrityFailureReason? {
        do {
            _ = try await verify(payload: payload, wrongKey: wrongKey, nonce: nonce, verifier: verifier, now: now)
            return nil
        } catch let error as IntegrityError {
            return error.reason
        }
    }

    @Test("accepts a valid token and returns its package, verdicts and timestamp")
    func acceptsValid() async throws {
        let before = Date()
        let verdict = try await verify()
        #expect(verdict.packageName == Fixture.packageName)
        #expect(verdict.appRecognitionVerdict == "PLAY_RECOGNIZED")
        #expect(verdict.deviceRecognitionVerdicts == ["MEETS_DEVICE_INTEGRITY"])
        #expect(abs(verdict.timestamp.timeIntervalSince(before)) < 60)
    }

    @Test("accepts timestampMillis as a JSON integer, unknown members, and no digest check when none is configured")
    func acceptsVariants() async throws {
        let millis = Int64(Date().timeIntervalSince1970 * 1000)
        let payload: JSONObject = [
            "requestDetails": ["timestampMillis": .integer(millis)], "environmentDetails": ["playProtectVerdict": "X"],
            "appIntegrity": ["certificateSha256Digest": ["AAAA"]],
        ]
        _ = try await verify(payload: payload, verifier: try await Fixture.verifier(certificateDigests: []))
    }

    @Test("refuses a token encrypted under another key, for decryption")
    func wrongDecryptionKey() async throws {
        #expect(try await reason(wrongKey: .decryption) == .decryption)
    }

    @Test("refuses a token signed by another key, for signature")
    func wrongVerificationKey() async throws {
        #expect(try await reason(wrongKey: .signature) == .signature)
    }

    @Test("refuses a token whose ciphertext, tag, IV or wrapped key was altered, for decryption")
    func tampered() async throws {
        let challenge = try Fixture.challenge()
        let token = try await Fixture.fake().token(nonce: challenge, packageName: Fixture.packageName)
        let verifier = try await Fixture.verifier()
        var parts = token.split(separator: ".").map(String.init)
        for index in 1...4 {
            var bytes = try Fixture.bytes(Base64URL.decode(parts[index]))
            bytes[bytes.count / 2] ^= 0x01
            let original = parts[index]
            parts[index] = Base64URL.encode(bytes)
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verify(parts.joined(separator: "."), challenge: challenge, now: Date())
            }
            #expect(error?.reason == .decryption, "segment \(index)")
            parts[index] = original
        }
        // The protected header is the AAD: another encoding of the same header does not decrypt.
        parts[0] = Base64URL.encode(Array(#"{"enc":"A256GCM","alg":"A256KW"}"#.utf8))
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verify(parts.joined(separator: "."), challenge: challenge, now: Date())
        }
        #expect(error?.reason == .decryption)
    }

    @Test("refuses a token for another nonce, for challenge")
    func anotherNonce() async throws {
        #expect(try await reason(nonce: try Fixture.challenge()) == .challenge)
    }

    @Test("refuses another request package and another app package, for package")
    func wrongPackage() async throws {
        #expect(try await reason(payload: ["requestDetails": ["requestPackageName": "com.evil"]]) == .package)
        #expect(try await reason(payload: ["appIntegrity": ["packageName": "com.evil"]]) == .package)
    }

    @Test("refuses an app Play does not recognise, for app_recognition")
    func unrecognised() async throws {
        #expect(
            try await reason(payload: ["appIntegrity": ["appRecognitionVerdict": "UNRECOGNIZED_VERSION"]])
                == .appRecognition)
    }

    @Test("refuses a certificate digest not configured, for certificate_digest")
    func digestNotListed() async throws {
        let other = Base64URL.encode(try SHA256.hash(Array("another certificate".utf8)))
        #expect(
            try await reason(payload: ["appIntegrity": ["certificateSha256Digest": [.string(other)]]])
                == .certificateDigest)
        #expect(try await reason(payload: ["appIntegrity": ["certificateSha256Digest": []]]) == .certificateDigest)
    }

    @Test("refuses a device verdict lacking a required one, for device_verdict")
    func missingDeviceVerdict() async throws {
        #expect(
            try await reason(payload: ["deviceIntegrity": ["deviceRecognitionVerdict": ["MEETS_BASIC_INTEGRITY"]]])
                == .deviceVerdict)
        #expect(try await reason(payload: ["deviceIntegrity": ["deviceRecognitionVerdict": nil]]) == .deviceVerdict)
    }

    @Test("refuses a verdict 6 minutes old or 2 minutes ahead, for timestamp; accepts 4 minutes old")
    func timestamps() async throws {
        #expect(try await reason(now: Date().addingTimeInterval(360)) == .timestamp)
        #expect(try await reason(now: Date().addingTimeInterval(-120)) == .timestamp)
        #expect(try await reason(now: Date().addingTimeInterval(240)) == nil)
    }

    @Test("refuses a JWE whose alg or enc is another, or that is compressed, for token_type")
    func otherAlgorithms() async throws {
        let challenge = try Fixture.challenge()
        let token = try await Fixture.fake().token(nonce: challenge, packageName: Fixture.packageName)
        let verifier = try await Fixture.verifier()
        var parts = token.split(separator: ".").map(String.init)
        for header in [
            #"{"alg":"A256GCM","enc":"A256KW"}"#, #"{"alg":"A128KW","enc":"A256GCM"}"#,
            #"{"alg":"A256KW","enc":"A256CBC-HS512"}"#, #"{"alg":"A256KW","enc":"A256GCM","zip":"DEF"}"#,
            #"{"alg":"dir","enc":"A256GCM"}"#,
        ] {
            parts[0] = Base64URL.encode(Array(header.utf8))
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verify(parts.joined(separator: "."), challenge: challenge, now: Date())
            }
            #expect(error?.reason == .tokenType, "\(header)")
        }
    }

    @Test("refuses an inner JWS with alg none or HS256, for token_type")
    func innerAlgorithmNone() async throws {
        let settings = try await Fixture.settings()
        let verifier = try PlayIntegrityVerifier(settings: settings)
        let challenge = try Fixture.challenge()
        for alg in ["none", "HS256", "RS256"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)"}"#.utf8))
            let payload = Base64URL.encode(Array(#"{"requestDetails":{"nonce":"\#(challenge)"}}"#.utf8))
            let jws = "\(header).\(payload).\(Base64URL.encode([1, 2, 3]))"
            let token = try Self.encrypt(jws, key: settings.decryptionKey)
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verify(token, challenge: challenge, now: Date())
            }
            #expect(error?.reason == .tokenType, "\(alg)")
        }
    }

    @Test("answers malformed for hostile input, never a crash")
    func malformed() async throws {
        let settings = try await Fixture.settings()
        let verifier = try PlayIntegrityVerifier(settings: settings)
        let header = Base64URL.encode(Array(#"{"alg":"A256KW","enc":"A256GCM"}"#.utf8))
        let inputs = [
            "", ".", "....", "a.b.c.d", "a.b.c.d.e.f", "\(header)....", "\(header).a.b.c.d", "%%%.a.b.c.d",
            "\(Base64URL.encode(Array("[1]".utf8))).AA.AA.AA.AA", String(repeating: "A", count: 16 * 1024 + 1),
            "\(Base64URL.encode(Array(#"{"alg":"A256KW","alg":"A256KW"}"#.utf8))).AA.AA.AA.AA",
            "\(header).AA=.AA.AA.AA",
        ]
        for input in inputs {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verify(input, challenge: "c", now: Date())
            }
            #expect(error?.reason == .malformed, "\(input.prefix(60))")
        }
        // Decrypts but is no JWS, or a JWS whose payload is not a verdict.
        let challenge = try Fixture.challenge()
        for inner in ["not a jws", "a.b", "\(Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))).e30.AA"] {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verify(
                    try Self.encrypt(inner, key: settings.decryptionKey), challenge: challenge, now: Date())
            }
            #expect(error?.reason == .malformed || error?.reason == .signature, "\(inner)")
        }
    }

    @Test("answers malformed for a signed verdict missing members or of the wrong types")
    func malformedVerdicts() async throws {
        let payloads: [JSONObject] = [
            ["requestDetails": nil], ["requestDetails": ["nonce": 7]], ["requestDetails": ["timestampMillis": "12a"]],
            ["requestDetails": ["timestampMillis": "-1"]], ["requestDetails": ["timestampMillis": nil]],
            ["requestDetails": ["timestampMillis": 1.5]], ["appIntegrity": "PLAY_RECOGNIZED"],
            ["appIntegrity": ["certificateSha256Digest": "abc"]],
            ["appIntegrity": ["certificateSha256Digest": ["a+b/"]]],
            ["deviceIntegrity": ["deviceRecognitionVerdict": "MEETS_DEVICE_INTEGRITY"]], ["deviceIntegrity": nil],
            ["appIntegrity": ["appRecognitionVerdict": nil]],
        ]
        for payload in payloads {
            #expect(try await reason(payload: payload) == .malformed, "\(JSONValue.object(payload).jsonString)")
        }
    }

    @Test("refuses keys that are not 32 bytes or not a P-256 SubjectPublicKeyInfo, naming the key's path")
    func invalidKeys() async throws {
        var settings = try await Fixture.settings()
        settings.decryptionKey = Array(settings.decryptionKey.prefix(16))
        #expect(throws: IntegrityConfigurationError.self) { try PlayIntegrityVerifier(settings: settings) }
        do {
            _ = try PlayIntegrityVerifier(settings: settings)
        } catch {
            #expect(error.path == "integrity.android.decryptionKeyFile")
        }
        settings = try await Fixture.settings()
        settings.verificationKey = Array(settings.verificationKey.dropLast())
        do {
            _ = try PlayIntegrityVerifier(settings: settings)
            Issue.record("a truncated verification key was accepted")
        } catch {
            #expect(error.path == "integrity.android.verificationKeyFile")
        }
    }

    /// A compact JWE (`A256KW` + `A256GCM`) around `plaintext`, made with Cryptography (for inner tokens the
    /// fake would never make).
    static func encrypt(_ plaintext: String, key: [UInt8]) throws -> String {
        let header = Base64URL.encode(Array(#"{"alg":"A256KW","enc":"A256GCM"}"#.utf8))
        let contentKey = try SecureRandom.bytes(count: 32)
        let sealed = try AES256GCM(key: contentKey).seal(Array(plaintext.utf8), associatedData: Array(header.utf8))
        let parts = [
            header, Base64URL.encode(try AESKeyWrap.wrap(contentKey, key: key)),
            Base64URL.encode(Array(sealed.prefix(12))),
            Base64URL.encode(Array(sealed.dropFirst(12).dropLast(16))), Base64URL.encode(Array(sealed.suffix(16))),
        ]
        return parts.joined(separator: ".")
    }
}
