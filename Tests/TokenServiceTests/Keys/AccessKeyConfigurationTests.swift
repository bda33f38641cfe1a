import Foundation
import Testing

@testable import TokenService

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
                + "so every user can read it; chmod 600 it (or 640)")
        #expect(!error.description.contains("PRIVATE-MATERIAL"))
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
