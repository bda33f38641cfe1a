import Foundation
import Store
import Synchronization
import Testing

@testable import PostgresStore

/// Why a connection failed: `.unavailable(.unreachable)` for callers, a class for the log and the CLI.
@Suite(.timeLimit(.minutes(1))) struct PostgresConnectionFailureTests {
    /// The test cluster's URL with a password and another database name.
    static func url(database: String) throws -> String {
        var components = try #require(URLComponents(string: try PostgresTestDatabase.baseURL()))
        components.password = "pa55word-s3cret"
        components.path = "/" + database
        components.query = nil
        return try #require(components.string)
    }

    @Test("a wrong database name is classed 'database does not exist', logged once a minute, without the password")
    func databaseMissing() async throws {
        let configuration = PostgresStore.Configuration(url: try Self.url(database: "no_such_database"))
        #expect(await PostgresStore.connectionFailure(configuration: configuration) == .databaseMissing)
        let lines = Mutex<[String]>([])
        let log: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
        for _ in 0..<2 {
            await #expect(throws: StoreError.unavailable(.unreachable)) {
                _ = try await PostgresStore(configuration: configuration, connectionFailureLog: log)
            }
        }
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("database does not exist") == true)
        #expect(logged.first?.contains("/no_such_database") == true)
        #expect(logged.allSatisfy { !$0.contains("pa55word") })
    }

    @Test("a port nobody listens on is classed 'connection refused'")
    func refused() async throws {
        let configuration = PostgresStore.Configuration(
            url: "postgres://tokenvend:pa55word-s3cret@127.0.0.1:1/x", connectTimeout: .seconds(2))
        #expect(await PostgresStore.connectionFailure(configuration: configuration) == .connectionRefused)
        let lines = Mutex<[String]>([])
        await #expect(throws: StoreError.unavailable(.unreachable)) {
            _ = try await PostgresStore(configuration: configuration) { line in lines.withLock { $0.append(line) } }
        }
        #expect(
            lines.withLock { $0 } == [
                "cannot connect to PostgreSQL at postgres://tokenvend@127.0.0.1:1/x: connection refused"
            ])
    }

    @Test("libpq's messages map to their classes")
    func classes() {
        let cases: [(String, PostgresConnectionFailure)] = [
            ("FATAL:  password authentication failed for user \"x\"", .authenticationFailed),
            ("FATAL:  no pg_hba.conf entry for host \"1.2.3.4\"", .authenticationFailed),
            ("FATAL:  database \"x\" does not exist", .databaseMissing),
            ("SSL error: certificate verify failed", .tls),
            ("connection to server at \"127.0.0.1\", port 1 failed: Connection refused", .connectionRefused),
            ("timeout expired", .timedOut),
            ("could not translate host name \"nowhere\"", .other),
        ]
        for (message, failure) in cases {
            #expect(
                PostgresConnectionFailure.classify(message: message, deadlinePassed: false) == failure, "\(message)")
        }
        #expect(PostgresConnectionFailure.classify(message: "", deadlinePassed: true) == .timedOut)
    }
}
