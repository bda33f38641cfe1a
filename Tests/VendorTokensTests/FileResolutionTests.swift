import StrictJSON
import Testing
import VendorTokens

/// `resolvingFiles` with a fake file system.
@Suite struct FileResolutionTests {
    struct MissingFile: Error, CustomStringConvertible {
        var description: String { "no such file" }
    }

    static let files = [
        "/run/secrets/chat": "\(Fixture.secret32)\n",
        "/run/secrets/k2": "\(Fixture.otherSecret64)\r\n",
        "/run/secrets/two-newlines": "\(Fixture.secret32)\n\n",
        "/run/secrets/empty": "\n",
        "/run/secrets/moss": "moss-key",
    ]

    static func read(_ path: String) throws -> String {
        guard let text = files[path] else { throw MissingFile() }
        return text
    }

    @Test("replaces apiSecretFile by apiSecret, one trailing newline removed, in place")
    func topLevel() throws {
        let entry = try Fixture.object(
            #"{"preset": "stream-chat", "apiKey": "k", "apiSecretFile": "/run/secrets/chat", "ttlSeconds": 60}"#)
        let resolved = try VendorConfiguration.resolvingFiles(entry, readFile: Self.read)
        #expect(resolved.map(\.name) == ["preset", "apiKey", "apiSecret", "ttlSeconds"])
        #expect(resolved["apiSecret"] == .string(Fixture.secret32))
        guard case .template(let template) = try VendorConfiguration.parse(name: "chat", entry: resolved) else {
            Issue.record("expected a template")
            return
        }
        #expect(template.activeKid == "k")
    }

    @Test("resolves secretFile inside keys[] entries, CRLF counting as one newline")
    func keyEntries() throws {
        let entry = try Fixture.object(
            """
            {"preset": "bloomreach-stream",
             "keys": [{"kid": "k1", "secret": "\(Fixture.secret64)"}, {"kid": "k2", "secretFile": "/run/secrets/k2"}]}
            """)
        let resolved = try VendorConfiguration.resolvingFiles(entry, readFile: Self.read)
        let keys = try #require(resolved["keys"]?.arrayValue)
        #expect(keys[1] == ["kid": "k2", "secret": .string(Fixture.otherSecret64)])
        #expect(keys[0] == entry["keys"]?.arrayValue?[0])
    }

    @Test("removes only one trailing newline")
    func oneNewline() throws {
        let entry = try Fixture.object(
            #"{"preset": "moss", "projectId": "p", "projectKeyFile": "/run/secrets/two-newlines"}"#)
        let resolved = try VendorConfiguration.resolvingFiles(entry, readFile: Self.read)
        #expect(resolved["projectKey"] == .string(Fixture.secret32 + "\n"))
    }

    @Test(
        "resolves every …File member name",
        arguments: ["secretFile", "apiSecretFile", "apiKeySecretFile", "privateKeyFile", "projectKeyFile"])
    func names(member: String) throws {
        let entry = try Fixture.object(#"{"\#(member)": "/run/secrets/moss"}"#)
        let resolved = try VendorConfiguration.resolvingFiles(entry, readFile: Self.read)
        #expect(resolved[String(member.dropLast(4))] == "moss-key")
        #expect(resolved[member] == nil)
    }

    @Test("an entry without file members is returned as it is, and nothing is read")
    func untouched() throws {
        let entry = try Fixture.object(#"{"preset": "moss", "projectId": "p", "projectKey": "k", "otherFile": "/x"}"#)
        let resolved = try VendorConfiguration.resolvingFiles(entry) { path in
            Issue.record("read \(path)")
            return ""
        }
        #expect(resolved == entry)
    }

    @Test(
        "refuses, naming the …File member",
        arguments: [
            (#"{"apiSecret": "x", "apiSecretFile": "/run/secrets/chat"}"#, "apiSecretFile", "not both"),
            (
                #"{"keys": [{"kid": "k", "secret": "x", "secretFile": "/run/secrets/chat"}]}"#, "keys[0].secretFile",
                "not both"
            ),
            (#"{"secretFile": "/run/secrets/none"}"#, "secretFile", "cannot read \"/run/secrets/none\": no such file"),
            (#"{"secretFile": "/run/secrets/empty"}"#, "secretFile", "is empty"),
            (#"{"secretFile": 42}"#, "secretFile", "expected the path of a file"),
        ])
    func refuses(entry: String, path: String, phrase: String) throws {
        let object = try Fixture.object(entry)
        let error = try #require(throws: VendorTemplateError.self) {
            try VendorConfiguration.resolvingFiles(object, readFile: Self.read)
        }
        #expect(error.path == path)
        #expect(error.reason.contains(phrase), "\(error.reason)")
    }
}
