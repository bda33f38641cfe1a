import Foundation
import Testing

@testable import TokenService

@Suite struct ConfigurationErrorTests {
    @Test("an unknown key in the file is named")
    func unknownFileKey() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"prot": 1}}"#)
        let error = try #require(fixture.error(file: file))
        #expect(error == .unknownKey(key: "server.prot", source: file, suggestion: "server.port"))
        #expect(error.description == "server.prot: unknown configuration key (in \(file)); did you mean server.port?")

        let section = try fixture.write("s.json", #"{"servr": {"port": 1}}"#)
        #expect(fixture.error(file: section) == .unknownKey(key: "servr", source: section, suggestion: "server"))

        let camel = try fixture.write("c2.json", #"{"server": {"maxbodybytes": 1}}"#)
        #expect(
            fixture.error(file: camel)
                == .unknownKey(key: "server.maxbodybytes", source: camel, suggestion: "server.maxBodyBytes"))

        let member = try fixture.write(
            "m.json", #"{"stream": {"keys": [{"kid": "a", "secret": "x", "alg": "HS256"}]}}"#)
        #expect(
            fixture.error(file: member)
                == .unknownKey(key: "stream.keys[0].alg", source: member, suggestion: "stream.keys[0].kid"))
    }

    @Test("an unknown TOKENVEND_ variable is named and other variables are ignored")
    func unknownEnvironmentVariable() throws {
        let fixture = try ConfigurationFixture()
        let error = fixture.error(environment: ["TOKENVEND_SERVER_PROT": "1", "HOME": "/root"])
        #expect(error == .unknownEnvironmentVariable("TOKENVEND_SERVER_PROT", suggestion: "server.port"))
        #expect(error?.description.hasPrefix("TOKENVEND_SERVER_PROT: unknown environment variable") == true)
        #expect(error?.description.hasSuffix("; did you mean TOKENVEND_SERVER_PORT (server.port)?") == true)
    }

    @Test("an explicit configuration file that does not exist is refused")
    func missingFile() throws {
        let fixture = try ConfigurationFixture()
        #expect(fixture.error(file: fixture.noFile) == .unreadableFile(path: fixture.noFile, reason: "no such file"))
        let broken = try fixture.write("b.json", #"{"server": "#)
        let error = try #require(fixture.error(file: broken))
        #expect(error.description.hasPrefix("configuration file \(broken): not valid JSON"))
        #expect(!error.description.contains("\n"))
    }

    @Test(
        "ill-typed and out-of-range values are named with what was expected",
        arguments: [
            (
                ["TOKENVEND_SERVER_PORT": "abc"],
                #"server.port (TOKENVEND_SERVER_PORT): expected an integer from 0 to 65535, got "abc""#
            ),
            (
                ["TOKENVEND_SERVER_PORT": "70000"],
                "server.port (TOKENVEND_SERVER_PORT): expected an integer from 0 to 65535, got 70000"
            ),
            (
                ["TOKENVEND_REGISTRATION_ENABLED": "maybe"],
                #"registration.enabled (TOKENVEND_REGISTRATION_ENABLED): expected true or false, got "maybe""#
            ),
            (
                ["TOKENVEND_PASSWORD_MIN_LENGTH": "7"],
                "password.minLength (TOKENVEND_PASSWORD_MIN_LENGTH): expected an integer from 8 to 128, got 7"
            ),
            (
                ["TOKENVEND_PASSWORD_MEMORY_COST": "1024"],
                "password.memoryCost (TOKENVEND_PASSWORD_MEMORY_COST): expected an integer from 8192 to 1048576, got 1024"
            ),
            (
                ["TOKENVEND_SERVER_HEADER_TIMEOUT_SECONDS": "0"],
                "server.headerTimeoutSeconds (TOKENVEND_SERVER_HEADER_TIMEOUT_SECONDS): expected an integer from 1 to 3600, got 0"
            ),
            (
                ["TOKENVEND_SERVER_REQUEST_TIMEOUT_SECONDS": "0"],
                "server.requestTimeoutSeconds (TOKENVEND_SERVER_REQUEST_TIMEOUT_SECONDS): expected an integer from 1 to 3600, got 0"
            ),
            (
                ["TOKENVEND_LOG_FORMAT": "xml"],
                #"log.format (TOKENVEND_LOG_FORMAT): expected one of json, logfmt, got "xml""#
            ),
            (
                ["TOKENVEND_MOSS_AUTH_URL": "ftp://x/y"],
                #"moss.authURL (TOKENVEND_MOSS_AUTH_URL): expected an https URL (http only to localhost), got "ftp://x/y""#
            ),
            (
                ["TOKENVEND_MOSS_AUTH_URL": "http://moss.example.com/token"],
                #"moss.authURL (TOKENVEND_MOSS_AUTH_URL): expected an https URL (http only to localhost), got "http://moss.example.com/token""#
            ),
        ])
    func invalidEnvironmentValues(environment: [String: String], message: String) throws {
        let fixture = try ConfigurationFixture()
        #expect(fixture.error(environment: environment)?.description == message)
    }

    @Test("ill-typed values in the file are refused")
    func invalidFileValues() throws {
        let fixture = try ConfigurationFixture()
        let port = try fixture.write("p.json", #"{"server": {"port": true}}"#)
        #expect(
            fixture.error(file: port)?.description
                == "server.port (\(port)): expected an integer from 0 to 65535, got true")
        let enabled = try fixture.write("e.json", #"{"registration": {"enabled": 1}}"#)
        #expect(
            fixture.error(file: enabled)?.description
                == "registration.enabled (\(enabled)): expected true or false, got 1")
        let section = try fixture.write("s.json", #"{"server": 1}"#)
        #expect(fixture.error(file: section)?.description == "server (\(section)): expected an object, got 1")
        let flag = fixture.error(overrides: ConfigurationOverrides(port: -1))
        #expect(flag?.description == "server.port (--port): expected an integer from 0 to 65535, got -1")
    }

    @Test("a signing secret shorter than 64 bytes refuses to start and is not echoed")
    func weakKey() throws {
        let fixture = try ConfigurationFixture()
        let weak = "short-but-secret"
        let error = try #require(
            fixture.error(environment: ["TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"a","secret":"\#(weak)"}]"#]))
        #expect(error.description.hasPrefix("accessToken.keys[0].secret: too short (16 bytes)"))
        #expect(!error.description.contains(weak))
        let stream = fixture.error(environment: [
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"a","secret":"\#(strongSecret)"},{"kid":"b","secret":"\#(weak)"}]"#
        ])
        #expect(stream?.description.hasPrefix("stream.keys[1].secret: too short") == true)
        let refresh = fixture.error(environment: ["TOKENVEND_REFRESH_TOKEN_SECRET": weak])
        #expect(refresh?.description.hasPrefix("refreshToken.secret: too short") == true)
    }

    @Test("a key list that is not JSON is refused without echoing it")
    func malformedKeyList() throws {
        let fixture = try ConfigurationFixture()
        let error = try #require(fixture.error(environment: ["TOKENVEND_STREAM_KEYS": "[{kid: \(strongSecret)"]))
        #expect(error.description.hasPrefix("stream.keys (TOKENVEND_STREAM_KEYS): expected a JSON list"))
        #expect(!error.description.contains(strongSecret))
    }

    @Test("a secret given where a key list belongs is not echoed")
    func misplacedSecret() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"accessToken": {"keys": "\#(strongSecret)"}}"#)
        let error = try #require(fixture.error(file: file))
        #expect(error.description.hasSuffix("got a string"))
        #expect(!error.description.contains("s3cr3t"))
        let item = try fixture.write("i.json", #"{"stream": {"keys": ["\#(strongSecret)"]}}"#)
        let itemError = try #require(fixture.error(file: item))
        #expect(itemError.description.hasPrefix("stream.keys[0] (\(item)): expected a list"))
        #expect(!itemError.description.contains("s3cr3t"))
    }

    @Test("activeKid must name a key, and kids are unique")
    func keySetConsistency() throws {
        let fixture = try ConfigurationFixture()
        let keys = #"[{"kid":"a","secret":"\#(strongSecret)"},{"kid":"a","secret":"\#(strongSecret)"}]"#
        #expect(
            fixture.error(environment: ["TOKENVEND_ACCESS_TOKEN_KEYS": keys])?.description
                == #"accessToken.keys[1].kid: duplicate kid "a""#)
        let one = #"[{"kid":"a","secret":"\#(strongSecret)"}]"#
        #expect(
            fixture.error(environment: ["TOKENVEND_ACCESS_TOKEN_KEYS": one, "TOKENVEND_ACCESS_TOKEN_ACTIVE_KID": "b"])?
                .description == #"accessToken.activeKid: no key in accessToken.keys has kid "b""#)
        #expect(
            fixture.error(environment: ["TOKENVEND_STREAM_ACTIVE_KID": "b"])?.description
                == #"stream.activeKid: set to "b" but stream.keys is empty"#)
    }

    @Test("secret and secretFile together in one layer are refused")
    func secretConflict() throws {
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("refresh", strongSecret)
        let error = fixture.error(environment: [
            "TOKENVEND_REFRESH_TOKEN_SECRET": strongSecret, "TOKENVEND_REFRESH_TOKEN_SECRET_FILE": path,
        ])
        #expect(
            error?.description
                == "refreshToken.secretFile (TOKENVEND_REFRESH_TOKEN_SECRET_FILE): give either refreshToken.secret "
                + "or refreshToken.secretFile, not both")
        let file = try fixture.write(
            "c.json", #"{"stream": {"keys": [{"kid": "a", "secret": "\#(strongSecret)", "secretFile": "\#(path)"}]}}"#)
        #expect(fixture.error(file: file)?.description.hasPrefix("stream.keys[0].secretFile") == true)
    }

    @Test("an unreadable secret file is refused naming the key")
    func missingSecretFile() throws {
        let fixture = try ConfigurationFixture()
        let error = fixture.error(environment: ["TOKENVEND_MOSS_PROJECT_KEY_FILE": fixture.noFile])
        #expect(
            error?.description
                == "moss.projectKeyFile (TOKENVEND_MOSS_PROJECT_KEY_FILE): cannot read secret file \"\(fixture.noFile)\": "
                + "no such file")
        let empty = try fixture.write("empty", " \n")
        #expect(
            fixture.error(environment: ["TOKENVEND_REFRESH_TOKEN_SECRET_FILE": empty])?.description
                == "refreshToken.secretFile (TOKENVEND_REFRESH_TOKEN_SECRET_FILE): secret file \"\(empty)\" is empty")
    }

    @Test("Moss needs both project id and key")
    func mossPair() throws {
        let fixture = try ConfigurationFixture()
        #expect(
            fixture.error(environment: ["TOKENVEND_MOSS_PROJECT_ID": "p"])?.description
                == "moss.projectKey: required when moss.projectId is set")
        #expect(
            fixture.error(environment: ["TOKENVEND_MOSS_PROJECT_KEY": "k"])?.description
                == "moss.projectId: required when moss.projectKey is set")
        let both = try fixture.resolve(environment: [
            "TOKENVEND_MOSS_PROJECT_ID": "p", "TOKENVEND_MOSS_PROJECT_KEY": "k",
        ])
        #expect(both.moss?.projectId == "p" && both.moss?.projectKey == "k")
    }
}
