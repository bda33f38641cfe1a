public import Store

/// What `PostgresStore.migrate(configuration:)` did (`tokenvend db migrate`).
public struct MigrationReport: Sendable, Equatable {
    /// The versions this call applied, in order (empty when the schema was up to date or another instance
    /// applied them first).
    public var applied: [Int]
    /// The version found after migrating, and the last this code knows.
    public var version: SchemaVersion

    /// Creates a report.
    public init(applied: [Int], version: SchemaVersion) {
        self.applied = applied
        self.version = version
    }
}
