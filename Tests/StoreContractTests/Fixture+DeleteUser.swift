import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

extension Fixture {
    /// Deletes a user row directly, as an operator with a SQL shell would (not `UserStoring.deleteUser`: no record,
    /// no revocation jobs).
    static func deleteUser(_ id: String, from store: any StoreBackend) async throws {
        if let sqlite = store as? SQLiteStore {
            _ = try await sqlite.database.write { (connection: Connection) throws(StoreError) in
                try connection.execute("DELETE FROM users WHERE id = ?", [.text(id)])
            }
        } else {
            let postgres = try #require(store as? PostgresStore)
            _ = try await postgres.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                try connection.run(
                    [PostgresStatement("test.deleteUser", "DELETE FROM users WHERE id = $1", [id])],
                    deadline: connection.deadline)
            }
        }
    }
}
