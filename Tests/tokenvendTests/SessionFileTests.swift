import ArgumentParser
import Foundation
import Testing
import TokenClientTesting

@testable import tokenvend

@Suite("Command-line session file and server URL")
struct SessionFileTests {
    @Test("an explicit --session-file wins and is resolved against the working directory")
    func explicitPath() {
        let location = SessionFileLocation.resolve(
            explicitPath: "state/me.json", environment: ["XDG_CONFIG_HOME": "/xdg"], homeDirectory: "/home/ada",
            workingDirectory: "/srv/app")
        #expect(location.file.path == "/srv/app/state/me.json")
    }

    @Test("XDG_CONFIG_HOME, when absolute, holds tokenvend/session.json")
    func xdgConfigHome() {
        let location = SessionFileLocation.resolve(
            explicitPath: nil, environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ada"])
        #expect(location.file.path == "/xdg/tokenvend/session.json")
        #expect(location.folder.path == "/xdg/tokenvend")
    }

    @Test("a relative or empty XDG_CONFIG_HOME is ignored for ~/.config", arguments: ["", "relative/config"])
    func relativeXDGIgnored(xdg: String) {
        let location = SessionFileLocation.resolve(
            explicitPath: nil, environment: ["XDG_CONFIG_HOME": xdg, "HOME": "/home/ada"])
        #expect(location.file.path == "/home/ada/.config/tokenvend/session.json")
    }

    @Test("without HOME the account's home directory is used")
    func noHome() {
        let location = SessionFileLocation.resolve(explicitPath: nil, environment: [:], homeDirectory: "/var/lib/ada")
        #expect(location.file.path == "/var/lib/ada/.config/tokenvend/session.json")
    }

    @Test("a missing folder is created with mode 0700, its parents too")
    func createsPrivateFolder() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let location = SessionFileLocation(file: root.url.appending(path: "a/b/tokenvend/session.json"))
        try location.createFolderIfMissing()
        #expect(try root.mode(of: location.folder) == 0o700)
        try location.createFolderIfMissing()
        #expect(try root.mode(of: location.folder) == 0o700)
    }

    @Test("an existing folder keeps its mode")
    func existingFolderUntouched() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.url.path)
        let location = SessionFileLocation(file: root.url.appending(path: "session.json"))
        try location.createFolderIfMissing()
        #expect(try root.mode(of: root.url) == 0o755)
    }

    @Test("a file where the folder should be is a session-file error")
    func fileInTheWay() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let blocker = root.url.appending(path: "tokenvend")
        try Data().write(to: blocker)
        let location = SessionFileLocation(file: blocker.appending(path: "session.json"))
        #expect(throws: ClientCommandError.sessionFile("\(blocker.path) is not a folder")) {
            try location.createFolderIfMissing()
        }
    }

    @Test("the server record is written 0600 and read back")
    func serverRecord() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let record = SessionServerRecord(sessionFile: root.url.appending(path: "session.json"))
        #expect(record.read() == nil)
        let url = try ServerURL.parse("https://auth.example.com/api/")
        try record.write(url)
        #expect(record.read() == url)
        #expect(try root.mode(of: record.file) == 0o600)
        record.remove()
        #expect(record.read() == nil)
    }

    @Test(
        "server URLs must be http(s) with a host and nothing but a path",
        arguments: [
            "ftp://example.com/", "example.com", "http://", "https://user:pw@example.com/", "http://example.com/?a=1",
            "http://example.com/#x", "not a url",
        ])
    func rejectsURL(text: String) {
        #expect(throws: ClientCommandError.self) { try ServerURL.parse(text) }
    }

    @Test("server URLs compare without the trailing slash and the case of scheme and host")
    func sameServer() throws {
        #expect(
            try ServerURL.same(
                ServerURL.parse("HTTP://Example.com:8080/api/"), ServerURL.parse("http://example.com:8080/api")))
        #expect(
            try !ServerURL.same(
                ServerURL.parse("http://example.com:8080/"), ServerURL.parse("http://example.com:8081/")))
        #expect(try !ServerURL.same(ServerURL.parse("http://example.com/"), ServerURL.parse("https://example.com/")))
    }

    @Test("plain http warns only off the loopback interface")
    func insecureWarning() throws {
        #expect(try ServerURL.insecureWarning(for: ServerURL.parse("http://127.0.0.1:8080/")) == nil)
        #expect(try ServerURL.insecureWarning(for: ServerURL.parse("http://localhost/")) == nil)
        #expect(try ServerURL.insecureWarning(for: ServerURL.parse("http://[::1]:8080/")) == nil)
        #expect(try ServerURL.insecureWarning(for: ServerURL.parse("https://auth.example.com/")) == nil)
        #expect(try ServerURL.insecureWarning(for: ServerURL.parse("http://auth.example.com/")) != nil)
    }

    @Test("the URL comes from --url, then TOKENVEND_URL, then the login record, then the default")
    func urlPrecedence() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let location = SessionFileLocation(file: root.url.appending(path: "session.json"))
        let options = try ClientOptions.parse(["--session-file", location.file.path])
        #expect(
            try options.serverURL(for: location, environment: [:], replacingRecord: false).absoluteString
                == ServerURL.defaultText)
        let fromEnvironment = ["TOKENVEND_URL": "http://127.0.0.1:9000/"]
        #expect(
            try options.serverURL(for: location, environment: fromEnvironment, replacingRecord: false)
                .absoluteString == "http://127.0.0.1:9000/")
        try SessionServerRecord(sessionFile: location.file).write(ServerURL.parse("http://127.0.0.1:9001/"))
        #expect(
            try options.serverURL(for: location, environment: [:], replacingRecord: false).absoluteString
                == "http://127.0.0.1:9001/")
        let flagged = try ClientOptions.parse(["--url", "http://127.0.0.1:9001"])
        #expect(
            try flagged.serverURL(for: location, environment: fromEnvironment, replacingRecord: false).port == 9001)
    }

    @Test("an explicit URL other than the session's server is refused, except by login")
    func foreignURLRefused() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let location = SessionFileLocation(file: root.url.appending(path: "session.json"))
        try SessionServerRecord(sessionFile: location.file).write(ServerURL.parse("http://127.0.0.1:9001/"))
        let options = try ClientOptions.parse(["--url", "http://127.0.0.1:9002/"])
        #expect(throws: ClientCommandError.self) {
            try options.serverURL(for: location, environment: [:], replacingRecord: false)
        }
        #expect(try options.serverURL(for: location, environment: [:], replacingRecord: true).port == 9002)
    }
}
