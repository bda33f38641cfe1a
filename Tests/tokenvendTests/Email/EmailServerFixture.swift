import Foundation
import PostgresTesting
import Testing
import TokenClientTesting
import TokenServiceTesting

/// A folder, a store (SQLite in the folder, or a fresh PostgreSQL database under `TOKENVEND_TEST_BACKEND=postgres`
/// or when asked) and the configuration of `tokenvend serve` processes that send mail over SMTP to a loopback
/// port. Removes the folder and drops the database when released.
final class EmailServerFixture {
    static let accessKey = "email-resilience-access-key-" + String(repeating: "a", count: 64)
    static let refreshSecret = "email-resilience-refresh-secret-" + String(repeating: "r", count: 64)
    static let password = "email resilience passphrase 4711"

    let folder: TemporaryFolder
    /// The PostgreSQL database, when the store is one.
    let database: String?

    init(postgres: Bool = TestBackend.current == .postgres) throws {
        folder = try TemporaryFolder()
        database = postgres ? try TestPostgres.createDatabase() : nil
    }

    deinit {
        if let database { TestPostgres.dropDatabase(database) }
        folder.remove()
    }

    /// The configuration: the store, fixed keys (a shared store refuses generated ones), cheap Argon2id, SMTP to
    /// `127.0.0.1:smtpPort`, per-address limits high enough for `addresses` distinct requests a minute, and
    /// `email` members merged over the defaults.
    func configuration(smtpPort: Int, requestsPerMinute: Int = 100_000, email extra: [String: Any] = [:]) throws
        -> [String: Any]
    {
        var email: [String: Any] = [
            "transport": "smtp", "smtp": ["url": "smtp://127.0.0.1:\(smtpPort)"],
            "from": "Resilience <no-reply@example.com>", "appName": "Resilience",
        ]
        email.merge(extra) { _, new in new }
        let store: [String: Any] =
            if let database { ["url": try TestPostgres.url(database: database)] } else {
                ["path": folder.url.appending(path: "data/tokenvend.sqlite").path]
            }
        return [
            "database": store,
            "accessToken": ["keys": [["kid": "at-1", "secret": Self.accessKey]]],
            "refreshToken": ["secret": Self.refreshSecret],
            "password": ["timeCost": 1, "memoryCost": 8192],
            "rateLimit": ["requestsPerAddressPerMinute": requestsPerMinute],
            "email": email,
            "log": ["format": "json", "level": "info"],
        ]
    }

    /// The code in a message's plain text: its only run of exactly `length` digits.
    static func code(in text: String, length: Int = 6) -> String? {
        let runs = text.split { !$0.isASCII || !$0.isNumber }.filter { $0.count == length }
        return runs.count == 1 ? runs.first.map { String($0) } : nil
    }

    /// The value of the Prometheus series `name{labels}` in `/metrics` of `client`'s server, or nil when absent.
    static func metric(_ name: String, _ labels: [String: String] = [:], at client: ServeClient) async throws -> Double?
    {
        let answer = try await client.send("GET", "/metrics")
        let text = String(decoding: answer.body, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name) && !line.hasPrefix("#") {
            let head = line.split(separator: " ").dropLast().joined(separator: " ")
            guard head == name || head.hasPrefix(name + "{") else { continue }
            guard labels.allSatisfy({ head.contains(#"\#($0.key)="\#($0.value)""#) }) else { continue }
            return line.split(separator: " ").last.flatMap { Double(String($0)) }
        }
        return nil
    }
}

extension EmailServerFixture {
    /// The plain-text part of an RFC 5322 message as the `file` transport writes it (a single part, or the
    /// `text/plain` part of a multipart one), its transfer encoding (quoted-printable or base64) undone.
    static func plainText(ofMessage raw: String) -> String {
        let message = raw.replacingOccurrences(of: "\r\n", with: "\n")
        var parts = [message]
        if let boundaryRange = message.range(of: #"boundary="?([^";\n]+)"?"#, options: .regularExpression) {
            let boundary = message[boundaryRange].replacingOccurrences(of: "boundary=", with: "")
                .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            parts = message.components(separatedBy: "--" + boundary).dropFirst().map { $0 }
        }
        guard
            let part = parts.first(where: { $0.lowercased().contains("text/plain") || parts.count == 1 }),
            let blank = part.range(of: "\n\n")
        else { return "" }
        let head = part[..<blank.lowerBound].lowercased()
        let body = String(part[blank.upperBound...])
        if head.contains("content-transfer-encoding: base64") {
            let joined = body.split(separator: "\n").joined()
            return Data(base64Encoded: joined).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        if head.contains("content-transfer-encoding: quoted-printable") {
            return body.replacingOccurrences(of: "=\n", with: "")
        }
        return body
    }

    /// The code of the message whose `.eml` file an "email sent" line of `server` names, for `recipient`'s kind:
    /// awaits that line (an event), then reads the file.
    static func codeFromFileTransport(_ server: ServeProcess, after previous: Int = 0) async throws -> String {
        try await server.waitForLine(containing: #""email sent""#, occurrence: previous + 1)
        let lines = server.logs.split(separator: "\n").filter { $0.contains(#""email sent""#) }
        let line = String(lines[previous])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let path = try #require(object["email.file"] as? String)
        let raw = try String(contentsOfFile: path, encoding: .utf8)
        return try #require(code(in: plainText(ofMessage: raw)))
    }
}
