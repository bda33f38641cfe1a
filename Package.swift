// swift-tools-version:6.2
// tokenvend: a token-vending HTTP/1.1 service. See README.md and DESIGN.md for the module map.
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode plus the upcoming features the house style asks for.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Targets that wrap C libraries: every unsafe expression is marked, and warnings fail the build.
let wrapperSettings: [SwiftSetting] =
    swiftSettings + [
        .strictMemorySafety(),
        .treatAllWarnings(as: .error),
    ]

let package = Package(
    name: "tokenvend",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "tokenvend", targets: ["tokenvend"]),
        .library(name: "JWT", targets: ["JWT"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "TokenClient", targets: ["TokenClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Configuration readers; no traits: tokenvend reads its JSON file itself (strict types, unknown keys).
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: []),
    ],
    targets: [
        // System libraries, found through pkg-config; `providers` names the Debian packages.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Linux headers the Glibc module leaves out (epoll, eventfd), for HTTPServer's event loops.
        .systemLibrary(name: "CHTTPServerLinux"),

        .target(name: "JWT", dependencies: ["COpenSSL"], swiftSettings: wrapperSettings),
        .target(
            name: "HTTPServer",
            dependencies: [
                "CHTTPServerLinux", .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Store",
            dependencies: ["CSQLite", .product(name: "Configuration", package: "swift-configuration")],
            swiftSettings: wrapperSettings
        ),
        .target(name: "PasswordHash", dependencies: ["CSodium"], swiftSettings: wrapperSettings),
        .target(name: "AuthAPI", swiftSettings: swiftSettings),
        .target(
            name: "TokenService",
            dependencies: [
                "JWT", "HTTPServer", "Store", "PasswordHash", "AuthAPI", "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "TokenClient", dependencies: ["AuthAPI"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "tokenvend",
            dependencies: [
                "TokenService", "TokenClient", "JWT",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Micro-benchmarks, run by `make bench` (release build); not part of the test suite.
        .executableTarget(
            name: "tokenvend-bench",
            dependencies: ["JWT", "HTTPServer"],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "JWTTests", dependencies: ["JWT"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"], swiftSettings: swiftSettings),
        .testTarget(name: "StoreTests", dependencies: ["Store"], swiftSettings: swiftSettings),
        .testTarget(name: "PasswordHashTests", dependencies: ["PasswordHash"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TokenServiceTests",
            dependencies: [
                "TokenService", "JWT", "HTTPServer", "Store",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TokenClientTests",
            dependencies: [
                "TokenClient", "TokenService", "tokenvend", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
