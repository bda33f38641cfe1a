import Foundation
import JWT
import Testing

@testable import TokenService

#if canImport(Glibc)
    import Glibc
#endif

/// `accessToken.keys` with `alg`, `state` and private keys: what loads, and the one-line error of each mistake.
@Suite struct AccessKeyConfigurationTests {
    private func keys(_ json: String) -> [String: String] { ["TOKENVEND_ACCESS_TOKEN_KEYS": json] }
    private let source = "TOKENVEND_ACCESS_TOKEN_KEYS"

    @Test("a set without states keeps working: activeKid is current, the other keys are previous")
    func legacySetStates() throws {
        let fixture = try ConfigurationFixture()
        let access = try fixture.resolve(environment: [
            "TOKENVEND_ACCESS_TOKEN_KEYS":
                #"[{"kid":"a","secret":"\#(strongSecret)"},{"kid":"b","secret":"\#(strongSecret)"}]"#,
            "TOKENVEND_ACCESS_TOKEN_ACTIVE_KID": "b",
        ]).accessToken
        #expect(access.keys.map { access.state(of: $0) } == [.previous, .current])
        #expect(access.keys.allSatisfy { $0.algorithm == .hs512 && $0.state == nil && $0.privateKey == nil })
        let first = try fixture.resolve(environment: [
            "TOKENVEND_ACCESS_TOKEN_KEYS":
                #"[{"kid":"a","secret":"\#(strongSecret)"},{"kid":"b","secret":"\#(strongSecret)"}]"#
        ]).accessToken
        #expect(first.activeKid == "a")
        #expect(first.keys.map { first.state(of: $0) } == [.current, .previous])
    }

    @Test("states are read, and the current key becomes activeKid")
    func statesRead() throws {
        let fixture = try ConfigurationFixture()
        let access = try fixture.resolve(
            environment: keys(
                #"[{"kid":"a","secret":"\#(strongSecret)","state":"previous"},"#
                    + #"{"kid":"b","secret":"\#(strongSecret)","state":"current","alg":"HS512"},"#
                    + #"{"kid":"c","secret":"\#(strongSecret)","state":"standby"},"#
                    + #"{"kid":"d","secret":"\#(strongSecret)","state":"revoked"}]"#)
        ).accessToken
        #expect(access.activeKid == "b")
        #expect(access.keys.map { access.state(of: $0) } == [.previous, .current, .standby, .revoked])
    }

    @Test("zero or two current keys, a key without a state among stated ones, a contrary activeKid: refused")
    func stateErrors() throws {
        let fixture = try ConfigurationFixture()
        let none = fixture.error(
            environment: keys(#"[{"kid":"a","secret":"\#(strongSecret)","state":"previous"}]"#))
        #expect(none?.description == "accessToken.keys: no key has state current; exactly one must sign")
        let two = fixture.error(
            environment: keys(
                #"[{"kid":"a","secret":"\#(strongSecret)","state":"current"},"#
                    + #"{"kid":"b","secret":"\#(strongSecret)","state":"current"}]"#))
        #expect(two?.description.hasPrefix(#"accessToken.keys[kid=b].state: a second key with state current"#) == true)
        let mixed = fixture.error(
            environment: keys(
                #"[{"kid":"a","secret":"\#(strongSecret)","state":"current"},{"kid":"b","secret":"\#(strongSecret)"}]"#
            ))
        #expect(mixed?.description.hasPrefix("accessToken.keys[kid=b].state: missing") == true)
        var environment = keys(
            #"[{"kid":"a","secret":"\#(strongSecret)","state":"current"},"#
                + #"{"kid":"b","secret":"\#(strongSecret)","state":"previous"}]"#)
        environment["TOKENVEND_ACCESS_TOKEN_ACTIVE_KID"] = "b"
        #expect(
            fixture.error(environment: environment)?.description.hasPrefix("accessToken.activeKid: names \"b\"") == true
        )
        let bad = fixture.error(environment: keys(#"[{"kid":"a","secret":"\#(strongSecret)","state":"active"}]"#))
        #expect(
            bad?.description.hasPrefix("accessToken.keys[kid=a].state (\(source)): expected one of current") == true)
    }

    @Test("an unknown member, RSA, an unknown alg and misplaced key material are refused naming the key")
    func memberErrors() throws {
        let fixture = try ConfigurationFixture()
        let unknown = fixture.error(environment: keys(#"[{"kid":"a","secret":"\#(strongSecret)","use":"sig"}]"#))
        #expect(
            unknown
                == .unknownKey(key: "accessToken.keys[0].use", source: source, suggestion: "accessToken.keys[0].alg"))
        let rsa = fixture.error(environment: keys(#"[{"kid":"k2","alg":"RS256","privateKey":"x"}]"#))
        #expect(rsa?.description.hasPrefix("accessToken.keys[kid=k2].alg (\(source)): RSA keys") == true)
        let other = fixture.error(environment: keys(#"[{"kid":"k2","alg":"ES384","privateKey":"x"}]"#))
        #expect(
            other?.description
                == #"accessToken.keys[kid=k2].alg (\#(source)): expected one of HS512, ES256, EdDSA, got "ES384""#)
        let secretForES = fixture.error(environment: keys(#"[{"kid":"k2","alg":"ES256","secret":"\#(strongSecret)"}]"#))
        #expect(
            secretForES?.description.hasPrefix(
                "accessToken.keys[kid=k2].secret (\(source)): an ES256 key takes privateKey") == true)
        let privateForHS = fixture.error(environment: keys(#"[{"kid":"k2","privateKey":"x"}]"#))
        #expect(
            privateForHS?.description.hasPrefix("accessToken.keys[kid=k2].privateKey (\(source)): an HS512 key") == true
        )
        let missing = fixture.error(environment: keys(#"[{"kid":"k2","alg":"EdDSA"}]"#))
        #expect(missing?.description.hasPrefix("accessToken.keys[kid=k2].privateKey (\(source)): missing") == true)
        let both = fixture.error(
            environment: keys(#"[{"kid":"k2","alg":"EdDSA","privateKey":"x","privateKeyFile":"/nonexistent"}]"#))
        #expect(both?.description.hasPrefix("accessToken.keys[kid=k2].privateKeyFile (\(source)): give either") == true)
        let short = fixture.error(environment: keys(#"[{"kid":"k2","alg":"HS512","secret":"short"}]"#))
        #expect(short?.description.hasPrefix("accessToken.keys[0].secret: too short (5 bytes)") == true)
    }

    @Test("a private key file that is missing, a folder or readable by every user is refused naming its path")
    func privateKeyFileErrors() throws {
        let fixture = try ConfigurationFixture()
        let absent = fixture.folder + "/absent.pem"
        let missing = fixture.error(environment: keys(#"[{"kid":"k","alg":"ES256","privateKeyFile":"\#(absent)"}]"#))
        #expect(
            missing?.description
                == "accessToken.keys[kid=k].privateKeyFile (\(source)): cannot read private key file \"\(absent)\": no such file"
        )
        let folder = fixture.error(
            environment: keys(#"[{"kid":"k","alg":"ES256","privateKeyFile":"\#(fixture.folder)"}]"#))
        #expect(folder?.description.hasSuffix("not a regular file") == true)
        let open = try fixture.write("open.pem", "PRIVATE-MATERIAL-THAT-MUST-NOT-LEAK\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open)
        let error = try #require(
            fixture.error(environment: keys(#"[{"kid":"k","alg":"EdDSA","privateKeyFile":"\#(open)"}]"#)))
        #expect(
            error.description
                == "accessToken.keys[kid=k].privateKeyFile (\(source)): private key file \"\(open)\" has mode 0644, "
                + "which gives other users access; a private key must have no permission bits for others (o-rwx): "
                + "chmod 600 it (or 640)")
        #expect(!error.description.contains("PRIVATE-MATERIAL"))
    }

    @Test("any permission bit for other users is refused, not only o+r; 0640 and 0600 pass the mode check")
    func privateKeyFileOtherBits() throws {
        let fixture = try ConfigurationFixture()
        let pem = try JWTKey.generate(kid: "k", algorithm: .edDSA).privateKeyPEM()
        let path = try fixture.write("k.pem", pem)
        func load(mode: Int) throws -> ConfigurationError? {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return fixture.error(environment: keys(#"[{"kid":"k","alg":"EdDSA","privateKeyFile":"\#(path)"}]"#))
        }
        for mode in [0o601, 0o602, 0o604] {
            let error = try load(mode: mode)
            #expect(
                error?.description.hasSuffix(
                    "has mode 0\(String(mode, radix: 8)), which gives other users access; a private key must have no "
                        + "permission bits for others (o-rwx): chmod 600 it (or 640)") == true)
        }
        for mode in [0o600, 0o640] { #expect(try load(mode: mode) == nil) }
    }

    @Test("a private key file the server cannot read (mode 000) is refused naming its path")
    func unreadablePrivateKeyFile() throws {
        let fixture = try ConfigurationFixture()
        let pem = try JWTKey.generate(kid: "k", algorithm: .es256).privateKeyPEM()
        let path = try fixture.write("locked.pem", pem)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        let error = fixture.error(environment: keys(#"[{"kid":"k","alg":"ES256","privateKeyFile":"\#(path)"}]"#))
        if geteuid() == 0 {
            // Root reads a file whatever its mode, so the refusal cannot happen here; what is real for root is that
            // the key loads. (Run the suite as a normal user to exercise the refusal.)
            #expect(error == nil, "running as root: a mode-000 file is readable by root")
        } else {
            #expect(
                error?.description
                    == "accessToken.keys[kid=k].privateKeyFile (\(source)): cannot read private key file \"\(path)\": "
                    + "not readable")
        }
    }

    @Test("an ES256 or EdDSA entry without a private key is refused naming the key, never used as an HS512 key")
    func asymmetricEntryWithoutPrivateKey() throws {
        for algorithm in [TokenServiceConfiguration.SigningKey.Algorithm.es256, .edDSA] {
            var entry = TokenServiceConfiguration.SigningKey(
                kid: "lost", secret: TokenServiceConfiguration.Secret(strongSecret))
            entry.algorithm = algorithm
            entry.state = .current
            #expect(
                throws: ConfigurationError.invalidValue(
                    key: "accessToken.keys[kid=lost]", source: "",
                    reason: "an \(algorithm.rawValue) key needs privateKey or privateKeyFile, and this one has none")
            ) { try AccessKeyMaterial.key(entry) }
            var access = TokenServiceConfiguration.AccessToken()
            access.keys = [entry]
            #expect(throws: ConfigurationError.self) { try access.publishedKeySet() }
        }
    }

    @Test("an inline privateKey may be a private JWK object, in the file or the environment; never echoed back")
    func privateJWKObject() throws {
        let fixture = try ConfigurationFixture()
        let ed = try JWTKey.generate(kid: "obj", algorithm: .edDSA)
        let jwkText = try #require(try TestKeys.privateJWK(ed))
        let jwk = try #require(try JSONSerialization.jsonObject(with: Data(jwkText.utf8)) as? [String: Any])
        let d = try #require(jwk["d"] as? String)
        let entry: [String: Any] = ["kid": "obj", "alg": "EdDSA", "privateKey": jwk, "state": "current"]
        let listText = String(
            decoding: try JSONSerialization.data(withJSONObject: [entry], options: [.sortedKeys]), as: UTF8.self)
        let fromEnvironment = try fixture.resolve(environment: keys(listText))
        let file = try fixture.write("c.json", #"{"accessToken": {"keys": \#(listText)}}"#)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let fromFile = try fixture.resolve(file: file)
        for configuration in [fromEnvironment, fromFile] {
            #expect(configuration.accessToken.keys.map(\.algorithm) == [.edDSA])
            let published = try configuration.accessToken.publishedKeySet()
            #expect(String(decoding: published, as: UTF8.self).contains(#""x":"\#(jwk["x"] as? String ?? "?")""#))
            let description = String(describing: configuration) + String(reflecting: configuration)
            #expect(!description.contains(d))
        }
        // A JWK object of the wrong curve, or a value of another type: one line, without the key.
        var wrong = entry
        wrong["alg"] = "ES256"
        let wrongText = String(decoding: try JSONSerialization.data(withJSONObject: [wrong]), as: UTF8.self)
        let error = try #require(fixture.error(environment: keys(wrongText)))
        #expect(error.description.hasPrefix("accessToken.keys[kid=obj].privateKey (\(source)): not a usable ES256"))
        #expect(!error.description.contains(d))
        let number = fixture.error(environment: keys(#"[{"kid":"n","alg":"EdDSA","privateKey":12345}]"#))
        #expect(
            number?.description
                == "accessToken.keys[kid=n].privateKey (\(source)): expected a PEM string or a private JWK object, "
                + "got an integer")
    }

    @Test("jwks.maxAgeSeconds defaults to 600 and is read from every layer")
    func jwksMaxAge() throws {
        let fixture = try ConfigurationFixture()
        #expect(try fixture.resolve().jwks.maxAgeSeconds == 600)
        #expect(try fixture.resolve(environment: ["TOKENVEND_JWKS_MAX_AGE_SECONDS": "60"]).jwks.maxAgeSeconds == 60)
        let file = try fixture.write("c.json", #"{"jwks": {"maxAgeSeconds": 3600}}"#)
        #expect(try fixture.resolve(file: file).jwks.maxAgeSeconds == 3600)
        #expect(
            fixture.error(environment: ["TOKENVEND_JWKS_MAX_AGE_SECONDS": "-1"])?.description
                == "jwks.maxAgeSeconds (TOKENVEND_JWKS_MAX_AGE_SECONDS): expected an integer from 0 to 604800, got -1")
    }
}
