import Foundation
import Store
import Testing

@testable import PostgresStore

/// The URL's password never shows: not in `displayName`, `description`, nor any error.
@Suite(.timeLimit(.minutes(1))) struct PostgresSecretTests {
    static let password = "s3cr3t-Pa55word"

    @Test("the redacted URL and the store's display name leave out the password")
    func redacted() async throws {
        let url = try PostgresURL("postgres://tokenvend:\(Self.password)@db.internal:6543/auth?sslmode=require")
        #expect(url.redacted == "postgres://tokenvend@db.internal:6543/auth")
        #expect("\(url)" == url.redacted && url.hasPassword)
        // Trust authentication ignores the password, so a store opens with it on the test cluster.
        let database = try await PostgresTestDatabase.make()
        let withPassword = database.url.replacingOccurrences(of: "tokenvend@", with: "tokenvend:\(Self.password)@")
        let store = try await PostgresStore(configuration: .init(url: withPassword))
        defer { store.close() }
        #expect(!store.displayName.contains(Self.password) && store.displayName.hasPrefix("postgres://tokenvend@"))
        #expect(!"\(store.url)".contains(Self.password))
        for text in [
            "\(store)", String(reflecting: store), "\(store.configuration)", String(reflecting: store.configuration),
        ] {
            #expect(!text.contains(Self.password) && text.contains("postgres://tokenvend@"))
        }
        await database.remove()
    }

    @Test(
        "errors for a bad or unreachable URL do not contain the password",
        arguments: [
            "postgres://tokenvend:\(password)@127.0.0.1:1/db",
            "postgres://tokenvend:\(password)@127.0.0.1:notaport/db",
            "mysql://tokenvend:\(password)@127.0.0.1/db",
        ])
    func errors(url: String) async throws {
        do {
            let store = try await PostgresStore(configuration: .init(url: url, connectTimeout: .seconds(2)))
            store.close()
            Issue.record("opened a store on \(url.count) characters of bad URL")
        } catch {
            #expect(!"\(error)".contains(Self.password))
            #expect(!String(reflecting: error).contains(Self.password))
        }
    }
}
