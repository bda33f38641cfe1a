public import Foundation
public import Store

/// The fixed times, durations and rows the store suites share (`StoreContractTests`, `PostgresStoreTests`).
public enum Fixture {
    /// The start of every test's clock.
    public static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
    /// A well-formed Argon2id PHC string (never verified by the store).
    public static let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"
    /// The refresh token's sliding lifetime.
    public static let ttl = Duration.seconds(100)
    /// A session's absolute lifetime.
    public static let cap = Duration.seconds(1000)
    /// The rotation's grace window.
    public static let grace = Duration.seconds(10)

    /// `seconds` after the epoch.
    public static func at(_ seconds: Double) -> Date { epoch.addingTimeInterval(seconds) }

    /// A user created at the epoch.
    public static func user(_ store: any StoreBackend, email: String = "ada@example.com") async throws -> User {
        try await store.users.create(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: hash, role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: epoch)
    }

    /// A session of `user` created `seconds` after the epoch, bound to the DPoP key `dpopThumbprint` when given.
    public static func session(
        _ store: any StoreBackend, _ user: User, at seconds: Double = 0, maxPerUser: Int = 100,
        dpopThumbprint: String? = nil
    ) async throws -> Session {
        try await store.sessions.create(
            userID: user.id, userAgent: "ua", ip: "::1", now: at(seconds), refreshTTL: ttl, maxLifetime: cap,
            maxPerUser: maxPerUser, dpopThumbprint: dpopThumbprint
        ).session
    }
}
