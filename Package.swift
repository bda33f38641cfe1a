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
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "tokenvend", targets: ["tokenvend"]),
        .library(name: "JWT", targets: ["JWT"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "TokenClient", targets: ["TokenClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0"),
        // Configuration readers; no traits: tokenvend reads its JSON file itself (strict types, unknown keys).
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: []),
    ],
    targets: [
        // System libraries, found through pkg-config; `providers` names the Debian packages.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Linux headers the Glibc module leaves out (epoll, eventfd), for HTTPServer's event loops.
        .systemLibrary(name: "CHTTPServerLinux"),

        // Strict JSON reader and the one JSON string/number writer; no dependencies.
        .target(name: "StrictJSON", swiftSettings: wrapperSettings),
        // HMAC, SHA-256, base64url, secure random, constant-time compare, ECDSA P-256 and RSA on OpenSSL 3; Ed25519
        // keys loaded through OpenSSL, signed and verified with libsodium.
        .target(name: "Cryptography", dependencies: ["COpenSSL", "CSodium"], swiftSettings: wrapperSettings),
        .target(name: "JWT", dependencies: ["Cryptography", "StrictJSON"], swiftSettings: wrapperSettings),
        // Third-party ID tokens (Sign in with Apple, Google): provider settings, the JWKS key cache, the verifier.
        .target(
            name: "IdentityProviders", dependencies: ["JWT", "Cryptography", "StrictJSON"], swiftSettings: swiftSettings
        ),
        // Third-party tokens by configuration (`vendors.<name>`): templates, presets, parameters, signing; pure.
        .target(
            name: "VendorTokens", dependencies: ["JWT", "Cryptography", "StrictJSON"], swiftSettings: swiftSettings
        ),
        // The one atomic 0600 file writer and `mkdir -p -m 0700`; no dependencies, no Foundation.
        .target(name: "PrivateFiles", swiftSettings: wrapperSettings),
        .target(
            name: "HTTPServer",
            dependencies: [
                "CHTTPServerLinux", "StrictJSON", "StructuredLogging", .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: wrapperSettings
        ),
        .target(
            name: "Store",
            dependencies: [
                "CSQLite", "PrivateFiles", .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: wrapperSettings
        ),
        // The PostgreSQL backend (libpq): shared by several instances; see DESIGN.md.
        .target(name: "PostgresStore", dependencies: ["CLibPQ", "Store"], swiftSettings: wrapperSettings),
        .target(name: "PasswordHash", dependencies: ["CSodium"], swiftSettings: wrapperSettings),
        .target(name: "AuthAPI", swiftSettings: swiftSettings),
        .target(
            name: "StructuredLogging", dependencies: ["StrictJSON", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TokenService",
            dependencies: [
                "JWT", "HTTPServer", "Store", "PasswordHash", "AuthAPI", "CCurl", "Cryptography", "StrictJSON",
                "PrivateFiles", "IdentityProviders", "VendorTokens",
                "PostgresStore", "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "TokenClient", dependencies: ["AuthAPI", "PrivateFiles"], swiftSettings: swiftSettings),
        // The README's "TokenClient on iOS" examples, compiled so they cannot rot (scripts/check-readme-examples.py
        // keeps the README's blocks identical to them); never shipped.
        .target(
            name: "TokenClientExamples", dependencies: ["TokenClient", "AuthAPI"], path: "Examples/TokenClientExamples",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "tokenvend",
            dependencies: [
                "TokenService", "TokenClient", "JWT", "StrictJSON", "Cryptography", "StructuredLogging",
                "PrivateFiles",
                "Store", "PostgresStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        // Micro-benchmarks, run by `make bench` (release build); not part of the test suite.
        .executableTarget(
            name: "tokenvend-bench",
            dependencies: [
                "JWT", "Cryptography", "StrictJSON", "COpenSSL", "CSodium", "StructuredLogging",
                .product(name: "Logging", package: "swift-log"),
                "IdentityProviders", "IdentityProvidersTesting",  // ID-token verification (RS256, warm key cache)
            ],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CryptographyTests", dependencies: ["Cryptography"], exclude: ["Wycheproof"],
            swiftSettings: swiftSettings),
        .testTarget(name: "PrivateFilesTests", dependencies: ["PrivateFiles"], swiftSettings: swiftSettings),
        .testTarget(
            name: "JWTTests", dependencies: ["JWT", "Cryptography", "StrictJSON"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IdentityProvidersTests",
            dependencies: ["IdentityProviders", "IdentityProvidersTesting", "JWT", "Cryptography", "StrictJSON"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "VendorTokensTests", dependencies: ["VendorTokens", "JWT", "StrictJSON", "Cryptography"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPServerTesting", "StructuredLogging"],
            swiftSettings: swiftSettings),
        .testTarget(name: "StoreTests", dependencies: ["Store"], swiftSettings: swiftSettings),
        // Runs against PostgreSQL: through `make test` or scripts/with-postgres.sh (TOKENVEND_TEST_POSTGRES_URL).
        .testTarget(
            name: "PostgresStoreTests", dependencies: ["PostgresStore", "Store", "PostgresTesting"],
            swiftSettings: swiftSettings),
        .testTarget(name: "PasswordHashTests", dependencies: ["PasswordHash"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StructuredLoggingTests", dependencies: ["StructuredLogging"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TokenServiceTests",
            dependencies: [
                "TokenService", "JWT", "HTTPServer", "Store", "StructuredLogging", "TokenServiceTesting",
                "HTTPServerTesting", "Cryptography", "StrictJSON", "PostgresTesting",
                "IdentityProviders", "IdentityProvidersTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client's unit tests need only the client (no server), so they can run on Apple platforms too.
        .testTarget(
            name: "TokenClientTests", dependencies: ["TokenClient", "AuthAPI", "TokenClientTesting"],
            swiftSettings: swiftSettings),
        .testTarget(name: "AuthAPITests", dependencies: ["AuthAPI"], swiftSettings: swiftSettings),
        // The README's examples run against the client's fake server (the SDKs' own types are stand-ins here).
        .testTarget(
            name: "TokenClientExamplesTests",
            dependencies: ["TokenClientExamples", "TokenClient", "AuthAPI", "TokenClientTesting"],
            swiftSettings: swiftSettings),
        // TokenClient against a real in-process TokenServer, and URLSessionTransport against HTTPServerTesting's
        // FakeUpstream (redirects between two loopback origins).
        .testTarget(
            name: "TokenClientEndToEndTests",
            dependencies: [
                "TokenClient", "AuthAPI", "TokenService", "TokenServiceTesting", "TokenClientTesting",
                "HTTPServerTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // The `tokenvend` command line: its client commands against the fake and the real server.
        .testTarget(
            name: "tokenvendTests",
            dependencies: [
                "tokenvend", "TokenClient", "AuthAPI", "TokenServiceTesting", "TokenClientTesting", "HTTPServerTesting",
                "PostgresTesting", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // Test support (Hummingbird's HummingbirdTesting pattern): libraries the test targets share, never
        // shipped. HTTPServerTesting needs only HTTPServer, so HTTPServerTests does not build TokenService.
        .target(
            name: "HTTPServerTesting", dependencies: ["HTTPServer", .product(name: "Logging", package: "swift-log")],
            path: "Tests/HTTPServerTesting", swiftSettings: swiftSettings),
        // The throw-away PostgreSQL cluster of scripts/with-postgres.sh: its URL, schemas and databases made with psql,
        // and its start/stop/restart control; the one copy for every test target that needs PostgreSQL.
        .target(name: "PostgresTesting", path: "Tests/PostgresTesting", swiftSettings: swiftSettings),
        .target(
            name: "TokenServiceTesting",
            dependencies: [
                "TokenService", "TokenClient", "HTTPServer", "HTTPServerTesting", "StructuredLogging",
                "PostgresStore", "Store", "PostgresTesting",  // TOKENVEND_TEST_BACKEND=postgres: a schema per server
                "IdentityProvidersTesting", "Cryptography", "JWT", "StrictJSON",  // FakeIdentityProvider's ID tokens
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Tests/TokenServiceTesting", swiftSettings: swiftSettings
        ),
        // RSA keys made at test time and RS256/ES256 ID tokens signed with them (the Cryptography module only verifies
        // RSA, so this signs with OpenSSL's EVP directly), and a fake JWKS fetcher that counts calls and can fail.
        .target(
            name: "IdentityProvidersTesting",
            dependencies: ["IdentityProviders", "JWT", "Cryptography", "StrictJSON", "COpenSSL"],
            path: "Tests/IdentityProvidersTesting", swiftSettings: swiftSettings),
        // The client's test doubles (FakeAuthServer behind HTTPTransport, a hand-moved clock); client only.
        .target(
            name: "TokenClientTesting", dependencies: ["TokenClient", "AuthAPI"], path: "Tests/TokenClientTesting",
            swiftSettings: swiftSettings),
    ]
)
