import Foundation
import Testing
import TokenClientTesting
import TokenServiceTesting

/// `tokenvend keys generate|jwks` and `jwt verify --jwks`, run as the built executable.
@Suite(.timeLimit(.minutes(1)))
struct KeyCommandTests {
    /// What one run of the executable printed, and how it exited.
    struct Run {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs the built `tokenvend` with `arguments`, off the cooperative pool.
    static func tokenvend(_ arguments: [String], environment: [String: String] = [:], in folder: URL) async throws
        -> Run
    {
        let executable = try executableURL()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = executable
                process.arguments = arguments
                process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
                process.currentDirectoryURL = folder
                let output = Pipe()
                let error = Pipe()
                process.standardOutput = output
                process.standardError = error
                do {
                    try process.run()
                    let out = output.fileHandleForReading.readDataToEndOfFile()
                    let err = error.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(
                        returning: Run(
                            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                            error: String(decoding: err, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func executableURL() throws -> URL {
        var candidates: [URL] = []
        if let argument = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: argument).deletingLastPathComponent()
            while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
            candidates.append(folder.appending(path: "tokenvend"))
        }
        candidates.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appending(path: ".build/debug/tokenvend"))
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
    }

    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("keys generate without flags still prints an 86-character HS512 secret; --alg HS512 --out writes it 0600")
    func hmacSecret() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plain = try await Self.tokenvend(["keys", "generate"], in: folder.url)
        #expect(plain.status == 0)
        #expect(plain.output.trimmingCharacters(in: .newlines).count == 86)
        let path = folder.url.appending(path: "hs.key").path
        let written = try await Self.tokenvend(["keys", "generate", "--alg", "HS512", "--out", path], in: folder.url)
        #expect(written.status == 0 && written.output.isEmpty)
        #expect(try mode(path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .newlines).count == 86)
    }

    @Test(
        "keys generate --alg ES256|EdDSA --out writes a 0600 PKCS#8 key, prints the public JWK, never overwrites",
        arguments: [("ES256", "EC", "P-256"), ("EdDSA", "OKP", "Ed25519")])
    func asymmetricKey(alg: String, kty: String, crv: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appending(path: "key.pem").path
        let run = try await Self.tokenvend(
            ["keys", "generate", "--alg", alg, "--kid", "k1", "--out", path], in: folder.url)
        #expect(run.status == 0)
        #expect(try mode(path) == 0o600)
        let pem = try String(contentsOfFile: path, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let jwk = try json(run.output)
        #expect(jwk["kid"] as? String == "k1" && jwk["alg"] as? String == alg && jwk["use"] as? String == "sig")
        #expect(jwk["kty"] as? String == kty && jwk["crv"] as? String == crv && jwk["d"] == nil)
        let again = try await Self.tokenvend(["keys", "generate", "--alg", alg, "--out", path], in: folder.url)
        #expect(again.status == 2)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == pem)
        let printed = try await Self.tokenvend(["keys", "generate", "--alg", alg], in: folder.url)
        #expect(printed.status == 0 && printed.output.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(printed.output.contains(#""kid":"\#(alg.lowercased())-"#))
    }

    @Test("keys jwks prints the set the server would publish; a bad key is one line without key material")
    func publishedSet() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var keys: [[String: String]] = []
        for (kid, alg, state) in [("a", "ES256", "previous"), ("b", "EdDSA", "current"), ("c", "ES256", "standby")] {
            let path = folder.url.appending(path: "\(kid).pem").path
            _ = try await Self.tokenvend(
                ["keys", "generate", "--alg", alg, "--kid", kid, "--out", path], in: folder.url)
            keys.append(["kid": kid, "alg": alg, "privateKeyFile": path, "state": state])
        }
        keys.append(["kid": "h", "secret": String(repeating: "x", count: 64), "state": "revoked"])
        let config = folder.url.appending(path: "c.json")
        let file = try JSONSerialization.data(withJSONObject: ["accessToken": ["keys": keys]])
        try file.write(to: config)
        let run = try await Self.tokenvend(["keys", "jwks", "--config", config.path], in: folder.url)
        #expect(run.status == 0)
        let set = try #require(try json(run.output)["keys"] as? [[String: Any]])
        #expect(set.map { $0["kid"] as? String } == ["b", "c", "a"])
        #expect(set.allSatisfy { $0["d"] == nil })

        let pem = try String(contentsOfFile: folder.url.appending(path: "b.pem").path, encoding: .utf8)
        let wrong = [["kid": "w", "alg": "ES256", "privateKey": pem]]
        let bad = try await Self.tokenvend(
            ["keys", "jwks", "--config", config.path],
            environment: [
                "TOKENVEND_ACCESS_TOKEN_KEYS": String(
                    decoding: try JSONSerialization.data(withJSONObject: wrong), as: UTF8.self)
            ],
            in: folder.url)
        #expect(bad.status == 2)
        #expect(bad.error.hasPrefix("Error: accessToken.keys[kid=w].privateKey (TOKENVEND_ACCESS_TOKEN_KEYS): "))
        #expect(bad.error.split(separator: "\n").count == 1)
        #expect(!bad.error.contains(String(pem.split(separator: "\n")[1])))
    }

    @Test("jwt verify --jwks accepts the server's tokens from a file or its loopback URL and refuses tampering")
    func verifyAgainstSet() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appending(path: "es.pem").path
        _ = try await Self.tokenvend(
            ["keys", "generate", "--alg", "ES256", "--kid", "es", "--out", path], in: folder.url)
        let keys = #"[{"kid":"es","alg":"ES256","privateKeyFile":"\#(path)"}]"#
        try await withTestServer(environment: ["TOKENVEND_ACCESS_TOKEN_KEYS": keys]) { server in
            let login = try await server.signUp()
            let url = "http://127.0.0.1:\(server.port)/.well-known/jwks.json"
            let setFile = folder.url.appending(path: "set.json")
            try await server.request("GET", "/.well-known/jwks.json").body.write(to: setFile)
            for source in [setFile.path, url] {
                let run = try await Self.tokenvend(
                    ["jwt", "verify", "--jwks", source, login.accessToken], in: folder.url)
                #expect(run.status == 0, "\(source): \(run.error)")
                #expect(try json(run.output)["sub"] as? String == login.userID)
            }
            var bytes = Array(login.accessToken.utf8)
            bytes[bytes.count - 4] = bytes[bytes.count - 4] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let tampered = String(decoding: bytes, as: UTF8.self)
            let refused = try await Self.tokenvend(["jwt", "verify", "--jwks", setFile.path, tampered], in: folder.url)
            #expect(refused.status == 1)
            #expect(refused.error.hasPrefix("invalid token: "))
            let wrongKid = try await Self.tokenvend(
                ["jwt", "verify", "--jwks", setFile.path, "--kid", "other", login.accessToken], in: folder.url)
            #expect(wrongKid.status == 1)
            let remote = try await Self.tokenvend(
                ["jwt", "verify", "--jwks", "http://example.com/jwks.json", login.accessToken], in: folder.url)
            #expect(remote.status == 2)
            #expect(remote.error.contains("https URL (http only to a loopback address)"))
            let both = try await Self.tokenvend(
                ["jwt", "verify", "--jwks", setFile.path, "--secret-file", path, login.accessToken], in: folder.url)
            #expect(both.status == 2)
        }
    }

    @Test("jwt verify --jwks skips keys it cannot use (enc, ES384, X25519) with a note, and refuses a set of none")
    func verifyAgainstMixedSet() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appending(path: "ed.pem").path
        _ = try await Self.tokenvend(
            ["keys", "generate", "--alg", "EdDSA", "--kid", "ed", "--out", path], in: folder.url)
        let keys = #"[{"kid":"ed","alg":"EdDSA","privateKeyFile":"\#(path)"}]"#
        try await withTestServer(environment: ["TOKENVEND_ACCESS_TOKEN_KEYS": keys]) { server in
            let login = try await server.signUp()
            let published = try json(
                String(decoding: try await server.request("GET", "/.well-known/jwks.json").body, as: UTF8.self))
            let served = try #require(published["keys"] as? [[String: Any]])
            let coordinate48 = String(repeating: "AQEB", count: 16)
            let coordinate32 = String(repeating: "AQEB", count: 10) + "AQE"
            let unusable: [[String: Any]] = [
                ["kty": "EC", "kid": "enc", "use": "enc", "crv": "P-256", "x": coordinate32, "y": coordinate32],
                ["kty": "EC", "kid": "p384", "alg": "ES384", "crv": "P-384", "x": coordinate48, "y": coordinate48],
                ["kty": "OKP", "kid": "x", "crv": "X25519", "x": coordinate32],
            ]
            let mixed = folder.url.appending(path: "mixed.json")
            try JSONSerialization.data(withJSONObject: ["keys": unusable + served]).write(to: mixed)
            let run = try await Self.tokenvend(
                ["jwt", "verify", "--jwks", mixed.path, login.accessToken], in: folder.url)
            #expect(run.status == 0, "\(run.error)")
            #expect(try json(run.output)["sub"] as? String == login.userID)
            #expect(run.error.contains(#"skipped key 0 (kid "enc"): use is not sig"#))
            #expect(run.error.contains(#"skipped key 1 (kid "p384"): alg ES384 is not supported"#))
            #expect(run.error.contains(#"skipped key 2 (kid "x"): curve X25519 is not supported"#))

            let none = folder.url.appending(path: "none.json")
            try JSONSerialization.data(withJSONObject: ["keys": unusable]).write(to: none)
            let refused = try await Self.tokenvend(
                ["jwt", "verify", "--jwks", none.path, login.accessToken], in: folder.url)
            #expect(refused.status == 2)
            #expect(refused.error.contains("no usable verification key"))
        }
    }
}
