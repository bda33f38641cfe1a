import Foundation
import StrictJSON
import Testing

@testable import TokenService

/// `vendors` through the configuration loader: every error one line naming `vendors.<name>.<member>` and its layer,
/// the same from the file and the environment; secret files read and never shown.
@Suite struct VendorConfigurationTests {
    static let secret = String(repeating: "vendor-secret-", count: 3)

    @Test("by default no vendor is configured")
    func defaults() throws {
        #expect(try ConfigurationFixture().resolve().vendors.isEmpty)
    }

    @Test(
        "a bad entry stops startup with one line naming the member and the layer",
        arguments: [
            (
                #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecrett": "x"}}"#, "vendors.chat.apiSecrett",
                "unknown"
            ),
            (#"{"chat": {"preset": "slack", "apiKey": "k"}}"#, "vendors.chat.preset", "stream-chat"),
            (
                #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "short"}}"#, "vendors.chat.apiSecret",
                "32 bytes"
            ),
            (
                #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "S", "ttlSeconds": 90000}}"#,
                "vendors.chat.ttlSeconds", "86400"
            ),
            (
                #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "S", "claims": {}}}"#,
                "vendors.chat.claims", "preset"
            ),
            (
                #"{"t": {"alg": "HS256", "keys": [{"kid": "k", "secret": "S"}], "claims": {"sub": "{{user.name}}", "exp": "{{exp}}"}}}"#,
                "vendors.t.claims.sub", "user.name"
            ),
            (
                #"{"t": {"alg": "HS256", "keys": [{"kid": "k", "secret": "S"}], "claims": {"sub": "user-{{user.id}}", "exp": "{{exp}}"}}}"#,
                "vendors.t.claims.sub", "whole"
            ),
            (
                #"{"t": {"alg": "HS256", "keys": [{"kid": "k", "secret": "S"}], "claims": {"sub": "{{user.id}}"}}}"#,
                "vendors.t.claims.exp", "missing"
            ),
            (
                #"{"t": {"alg": "HS256", "keys": [{"kid": "k", "secret": "S"}], "claims": {"r": "{{param.room}}", "exp": "{{exp}}"}}}"#,
                "vendors.t.claims.r", "room"
            ),
            (#"{"t": {"alg": "none", "keys": [], "claims": {"exp": "{{exp}}"}}}"#, "vendors.t.alg", "HS256"),
            (#"{"v": {"preset": "livekit", "apiKey": "k", "apiSecret": "S"}}"#, "vendors.v.serverURL", "missing"),
            (
                #"{"m": {"preset": "moss", "projectId": "p", "projectKey": "k", "authURL": "http://moss.example/token"}}"#,
                "vendors.m.authURL", "https"
            ),
            (#"{"Chat!": {"preset": "stream-chat", "apiKey": "k"}}"#, "vendors", "vendor name"),
            (#"{"chat": "stream-chat"}"#, "vendors.chat", "expected an object"),
            (
                #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "S", "roles": []}}"#,
                "vendors.chat.roles", "at least one role"
            ),
            (
                #"{"t": {"alg": "HS256", "keys": [{"kid": "k", "secret": "S"}], "claims": {"r": "{{param.room}}", "exp": "{{exp}}"}, "parameters": {"room": {"type": "string", "allowedByRole": {"user": "^a$"}}}}}"#,
                "vendors.t.parameters.room.allowedByRole", "required"
            ),
        ])
    func refused(json: String, key: String, phrase: String) throws {
        let json = json.replacingOccurrences(of: #""S""#, with: "\"\(Self.secret)\"")
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"vendors": "# + json + "}")
        let fromFile = try #require(fixture.error(file: file)).description
        #expect(fromFile.hasPrefix(key + " ") || fromFile.hasPrefix(key + ":"), "\(fromFile)")
        #expect(fromFile.contains(file), "\(fromFile)")
        #expect(fromFile.localizedCaseInsensitiveContains(phrase), "\(fromFile)")
        #expect(!fromFile.contains("\n"))
        #expect(!fromFile.contains(Self.secret))
        let fromEnvironment = try #require(fixture.error(environment: ["TOKENVEND_VENDORS": json])).description
        #expect(fromEnvironment == fromFile.replacingOccurrences(of: file, with: "TOKENVEND_VENDORS"))
    }

    @Test("apiSecretFile is read like every secret file; a missing one is refused naming the member and path")
    func secretFiles() throws {
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("chat-secret", Self.secret + "\n")
        let json = #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecretFile": "\#(path)"}}"#
        let vendors = try fixture.resolve(environment: ["TOKENVEND_VENDORS": json]).vendors
        #expect(vendors.map(\.name) == ["chat"])
        #expect(vendors.first?.resolved["apiSecret"]?.stringValue == Self.secret)
        #expect(vendors.first?.resolved["apiSecretFile"] == nil)
        #expect(vendors.first?.description == "VendorSettings(chat, preset: stream-chat)")
        let missing = #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecretFile": "\#(path).gone"}}"#
        let error = try #require(fixture.error(environment: ["TOKENVEND_VENDORS": missing])).description
        #expect(error.hasPrefix("vendors.chat"), "\(error)")
        #expect(error.contains("\(path).gone") && error.contains("no such file"), "\(error)")
        let both =
            #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "\#(Self.secret)", "apiSecretFile": "\#(path)"}}"#
        let twice = try #require(fixture.error(environment: ["TOKENVEND_VENDORS": both])).description
        #expect(twice.hasPrefix("vendors.chat.apiSecret"), "\(twice)")
        #expect(!twice.contains(Self.secret))
    }

    @Test("the environment's map replaces the file's whole; text that is not JSON is refused without echoing it")
    func environmentReplacesFile() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json",
            #"{"vendors": {"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "\#(Self.secret)"}}}"#)
        let json = #"{"engagement": {"preset": "bloomreach-customer", "keyId": "b", "secret": "\#(Self.secret)"}}"#
        let vendors = try fixture.resolve(file: file, environment: ["TOKENVEND_VENDORS": json]).vendors
        #expect(vendors.map(\.name) == ["engagement"])
        let error = try #require(fixture.error(environment: ["TOKENVEND_VENDORS": "chat=\(Self.secret)"]))
            .description
        #expect(error.hasPrefix("vendors (TOKENVEND_VENDORS): expected a JSON object"))
        #expect(!error.contains(Self.secret))
    }

    @Test("a vendor configured without keys loads (its route answers 503) and 50 vendors load, each its own secret")
    func withoutKeysAndMany() throws {
        let fixture = try ConfigurationFixture()
        var entries = [#""later": {"preset": "stream-chat", "apiKey": "k"}"#]
        for index in 0..<50 {
            entries.append(
                #""v\#(index)": {"preset": "livekit", "apiKey": "k\#(index)", "apiSecret": "\#(Self.secret)\#(index)", "#
                    + #""serverURL": "wss://lk\#(index).example.com"}"#)
        }
        let vendors = try fixture.resolve(environment: ["TOKENVEND_VENDORS": "{" + entries.joined(separator: ",") + "}"]
        )
        .vendors
        #expect(vendors.count == 51)
        #expect(vendors.first?.name == "later")
    }
}
