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
        .library(name: "TokenClient", targets: ["TokenClient", "TokenClientCore"]),
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
        // GNU libunistring (no pkg-config file): Unicode normalisation without Foundation's ICU.
        .systemLibrary(name: "CUnistring", providers: [.apt(["libunistring-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Linux headers the Glibc module leaves out (epoll, eventfd), for HTTPServer's event loops.
        .systemLibrary(name: "CHTTPServerLinux"),
        // The common-password list as data (common-passwords.txt, its generator and credit beside it), embedded
        // at build time with C23 #embed; TokenService reads it once.
        .target(
            name: "CCommonPasswords", exclude: ["common-passwords.txt", "generate-common-passwords.py", "README.md"]
        ),

        // Strict JSON reader and the one JSON string/number writer; no dependencies.
        .target(name: "StrictJSON", swiftSettings: wrapperSettings),
        // Strict RFC 8949 CBOR decoder (definite lengths, bounded size and depth): App Attest objects, COSE keys.
        .target(name: "CBOR", swiftSettings: wrapperSettings),
        // HMAC, SHA-256, base64url, secure random, constant-time compare, ECDSA P-256 and RSA on OpenSSL 3; Ed25519
        // keys loaded through OpenSSL, signed and verified with libsodium.
        .target(name: "Cryptography", dependencies: ["COpenSSL", "CSodium"], swiftSettings: wrapperSettings),
        .target(name: "JWT", dependencies: ["Cryptography", "StrictJSON"], swiftSettings: wrapperSettings),
        // DPoP proofs (RFC 9449, issue 35): the proof verifier with its key cache, htu normalisation, stateless
        // nonces and the in-memory replay cache of a single instance; no state of a server.
        .target(name: "DPoP", dependencies: ["JWT", "Cryptography", "StrictJSON"], swiftSettings: wrapperSettings),
        // Passkeys (issue 36): a WebAuthn Level 3 relying party's checks (client data, authenticator data, COSE keys,
        // the registration and assertion rules), the options JSON, the `passkeys` section's reader and the association
        // files; pure, no I/O (the caller stores challenges and credentials). App Attest reuses its authenticator data.
        .target(
            name: "WebAuthn",
            dependencies: [
                "CBOR", "Cryptography", "StrictJSON", .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings),
        // The one loopback-host predicate (`localhost`, 127.0.0.0/8, ::1), from the text alone; no dependencies.
        .target(name: "LoopbackHost", swiftSettings: wrapperSettings),
        // The one outbound HTTP client (libcurl) and URL rule ("https, or http only to a loopback host"); no Foundation.
        .target(name: "OutboundHTTP", dependencies: ["CCurl", "LoopbackHost"], swiftSettings: wrapperSettings),
        // Email: RFC 5322 messages, templates with the code guarantee, the SMTP (libcurl) and file transports, and
        // the `email` section's reader; no Foundation.
        .target(
            name: "Mail",
            dependencies: [
                "CCurl", "StrictJSON", "PrivateFiles", "LoopbackHost", "OutboundHTTP",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: wrapperSettings),
        // Third-party ID tokens (Sign in with Apple, Google): provider settings, the JWKS key cache, the verifier.
        .target(
            name: "IdentityProviders", dependencies: ["JWT", "Cryptography", "StrictJSON", "OutboundHTTP"],
            swiftSettings: swiftSettings
        ),
        // App integrity (issue 34): App Attest attestations and assertions (CBOR, the x5c chain through OpenSSL),
        // classic Play Integrity tokens (JWE + JWS), Firebase App Check tokens, and the `integrity` section's
        // reader; pure verification, no I/O (the caller fetches and caches keys).
        .target(
            name: "AppIntegrity",
            dependencies: [
                "Cryptography", "JWT", "StrictJSON", "CBOR", "WebAuthn",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // Third-party tokens by configuration (`vendors.<name>`): templates, presets, parameters, signing; pure.
        .target(
            name: "VendorTokens", dependencies: ["JWT", "Cryptography", "StrictJSON"], swiftSettings: swiftSettings
        ),
        // NFC and NFKC (on libunistring) and whitespace trimming: the text rules the server needs, without Foundation.
        .target(name: "UnicodeText", dependencies: ["CUnistring"], swiftSettings: wrapperSettings),
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
        // The store protocols, models and shared rules (rotation, email codes, times in milliseconds); no database code.
        // Cryptography: the constant-time comparison of code hashes.
        .target(name: "Store", dependencies: ["Cryptography"], swiftSettings: wrapperSettings),
        // The SQLite backend (the embedded default, one instance): database, connections, migrations, repositories.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "CSQLite", "Store", "PrivateFiles", .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: wrapperSettings
        ),
        // The PostgreSQL backend (libpq): shared by several instances; see DESIGN.md.
        .target(
            name: "PostgresStore",
            dependencies: [
                "CLibPQ", "Store", "Cryptography", "LoopbackHost",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: wrapperSettings),
        .target(name: "PasswordHash", dependencies: ["CSodium"], swiftSettings: wrapperSettings),
        .target(name: "AuthAPI", swiftSettings: swiftSettings),
        .target(
            name: "StructuredLogging", dependencies: ["StrictJSON", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TokenService",
            dependencies: [
                "JWT", "HTTPServer", "Store", "PasswordHash", "AuthAPI", "OutboundHTTP", "Cryptography", "StrictJSON",
                "PrivateFiles", "IdentityProviders", "VendorTokens", "Mail", "AppIntegrity", "DPoP", "WebAuthn",
                "PostgresStore", "SQLiteStore", "CCommonPasswords", "UnicodeText",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client without URLSession (FoundationEssentials on Linux): session, stores, providers, web sign-in, the
        // wire coding and its own transport values. The `tokenvend` executable links this one only.
        // On Linux the software DPoP keys (P-256, Ed25519) come from Cryptography (OpenSSL, libsodium), which the
        // server builds anyway; on Apple platforms from CryptoKit (Secure Enclave included). See DPoPKey.
        .target(
            name: "TokenClientCore",
            dependencies: [
                "AuthAPI", "PrivateFiles", .target(name: "Cryptography", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings),
        // What apps import: the core re-exported, plus URLSessionTransport and the URLRequest faces.
        .target(name: "TokenClient", dependencies: ["TokenClientCore", "AuthAPI"], swiftSettings: swiftSettings),
        // The README's "TokenClient on iOS" examples, compiled so they cannot rot (scripts/check-readme-examples.py
        // keeps the README's blocks identical to them); never shipped.
        .target(
            name: "TokenClientExamples", dependencies: ["TokenClient", "AuthAPI"], path: "Examples/TokenClientExamples",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "tokenvend",
            dependencies: [
                "TokenService", "TokenClientCore", "OutboundHTTP", "LoopbackHost", "IdentityProviders", "JWT",
                "StrictJSON", "Cryptography", "StructuredLogging", "PrivateFiles", "UnicodeText",
                "Store", "PostgresStore", "Mail",
                "AuthAPI",  // the wire types its client commands send and read
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
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "Cryptography"], swiftSettings: swiftSettings),
        .testTarget(
            name: "OutboundHTTPTests", dependencies: ["OutboundHTTP", "LoopbackHost", "CCurl", "HTTPServerTesting"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CryptographyTests", dependencies: ["Cryptography"], exclude: ["Wycheproof"],
            swiftSettings: swiftSettings),
        // Messages checked byte for byte and by Python's email package; real SMTP through the sink.
        .testTarget(
            name: "MailTests",
            dependencies: [
                "Mail", "MailTesting", "StrictJSON", "CCurl",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(name: "PrivateFilesTests", dependencies: ["PrivateFiles"], swiftSettings: swiftSettings),
        .testTarget(
            name: "UnicodeTextTests", dependencies: ["UnicodeText"], swiftSettings: swiftSettings),
        // Resources/dpop-vectors.json (scripts/generate-dpop-vectors.py) is read through #filePath.
        .testTarget(
            name: "DPoPTests", dependencies: ["DPoP", "JWT", "Cryptography"], exclude: ["Resources"],
            swiftSettings: swiftSettings),
        // Registrations and assertions made by the Python software authenticator (cryptography + cbor2) and checked
        // by py_webauthn (scripts/generate-webauthn-vectors.py → Resources/webauthn-vectors.json, read via #filePath).
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn", "CBOR", "Cryptography", "StrictJSON",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            exclude: ["Resources"], swiftSettings: swiftSettings),
        .testTarget(
            name: "JWTTests", dependencies: ["JWT", "Cryptography", "StrictJSON"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IdentityProvidersTests",
            dependencies: [
                "IdentityProviders", "IdentityProvidersTesting", "JWT", "Cryptography", "StrictJSON",
                "HTTPServerTesting",
            ],
            swiftSettings: swiftSettings),
        // The verifiers against objects the Python fakes build (cryptography, cbor2, joserfc), never checked-in blobs.
        .testTarget(
            name: "AppIntegrityTests",
            dependencies: ["AppIntegrity", "AppIntegrityTesting", "Cryptography", "JWT", "StrictJSON", "CBOR"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "VendorTokensTests", dependencies: ["VendorTokens", "JWT", "StrictJSON", "Cryptography"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPServerTesting", "StructuredLogging"],
            swiftSettings: swiftSettings),
        // The shared rules of `Store` (rotation, milliseconds) and the SQLite backend's own behaviour.
        .testTarget(name: "StoreTests", dependencies: ["Store", "SQLiteStore"], swiftSettings: swiftSettings),
        // `StoreBackend` gives the same answers on both backends: SQLite always, PostgreSQL when a test cluster is
        // there (TOKENVEND_TEST_POSTGRES_URL: `make test` or scripts/with-postgres.sh).
        .testTarget(
            name: "StoreContractTests",
            dependencies: ["Store", "SQLiteStore", "PostgresStore", "StoreTesting", "PostgresTesting"],
            swiftSettings: swiftSettings),
        // Runs against PostgreSQL: through `make test` or scripts/with-postgres.sh (TOKENVEND_TEST_POSTGRES_URL).
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: ["PostgresStore", "Store", "SQLiteStore", "StoreTesting", "PostgresTesting"],
            swiftSettings: swiftSettings),
        .testTarget(name: "PasswordHashTests", dependencies: ["PasswordHash"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StructuredLoggingTests", dependencies: ["StructuredLogging"], swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TokenServiceTests",
            dependencies: [
                "TokenService", "JWT", "HTTPServer", "Store", "SQLiteStore", "StructuredLogging",
                "TokenServiceTesting", "HTTPServerTesting", "Cryptography", "StrictJSON", "PostgresTesting",
                "IdentityProviders", "IdentityProvidersTesting", "Mail", "MailTesting", "AppIntegrity",
                "AppIntegrityTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client's unit tests need only the client (no server), so they can run on Apple platforms too.
        .testTarget(
            name: "TokenClientTests",
            dependencies: ["TokenClient", "TokenClientCore", "AuthAPI", "TokenClientTesting"],
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
                "TokenClient", "TokenClientCore", "AuthAPI", "TokenService", "TokenServiceTesting",
                "TokenClientTesting", "HTTPServerTesting", "MailTesting", "AppIntegrityTesting",
            ],
            swiftSettings: swiftSettings
        ),
        // The `tokenvend` command line: its client commands against the fake and the real server.
        .testTarget(
            name: "tokenvendTests",
            dependencies: [
                "tokenvend", "TokenClient", "TokenClientCore", "OutboundHTTP", "AuthAPI", "TokenServiceTesting",
                "TokenClientTesting", "HTTPServerTesting", "PostgresTesting", "IdentityProviders", "Store",
                "SQLiteStore", "MailTesting",
                "IdentityProvidersTesting", "StrictJSON", "Cryptography",  // FakeApple: the Apple revocation tests
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // Test support (Hummingbird's HummingbirdTesting pattern): libraries the test targets share, never
        // shipped. HTTPServerTesting needs only HTTPServer, so HTTPServerTests does not build TokenService.
        .target(
            name: "HTTPServerTesting", dependencies: ["HTTPServer", .product(name: "Logging", package: "swift-log")],
            path: "Tests/HTTPServerTesting", swiftSettings: swiftSettings),
        // The SMTP sink (scripts/smtp_sink.py, aiosmtpd) as a child process, and throw-away TLS certificates.
        .target(name: "MailTesting", path: "Tests/MailTesting", swiftSettings: swiftSettings),
        // The throw-away PostgreSQL cluster of scripts/with-postgres.sh: its URL, schemas and databases made with psql,
        // and its start/stop/restart control; the one copy for every test target that needs PostgreSQL.
        .target(name: "PostgresTesting", path: "Tests/PostgresTesting", swiftSettings: swiftSettings),
        // The store suites' fixture and the backends the contract suites run on (`Backend.allCases`).
        .target(
            name: "StoreTesting", dependencies: ["Store", "SQLiteStore", "PostgresStore", "PostgresTesting"],
            path: "Tests/StoreTesting", swiftSettings: swiftSettings),
        .target(
            name: "TokenServiceTesting",
            dependencies: [
                "TokenService", "TokenClient", "HTTPServer", "HTTPServerTesting", "StructuredLogging",
                "Store", "SQLiteStore",
                "PostgresStore", "PostgresTesting",  // TOKENVEND_TEST_BACKEND=postgres: a schema per server
                "IdentityProvidersTesting", "Cryptography", "JWT", "StrictJSON",  // FakeIdentityProvider's ID tokens
                "MailTesting", "AppIntegrityTesting",  // DPoPProofMaker: scripts/dpop_proof.py as a child process
                "AuthAPI",  // PasskeyAuthenticator decodes the passkey wire types
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Tests/TokenServiceTesting", swiftSettings: swiftSettings
        ),
        // RSA keys made at test time and RS256/ES256 ID tokens signed with them (the Cryptography module only verifies
        // RSA, so this signs with OpenSSL's EVP directly), and a fake JWKS fetcher that counts calls and can fail.
        .target(
            name: "IdentityProvidersTesting",
            dependencies: [
                "IdentityProviders", "JWT", "Cryptography", "StrictJSON", "COpenSSL", "OutboundHTTP", "MailTesting",
            ],
            path: "Tests/IdentityProvidersTesting", swiftSettings: swiftSettings),
        // The app-integrity fakes (scripts/fake_app_attest.py, scripts/fake_play_integrity.py) as child processes.
        .target(
            name: "AppIntegrityTesting", dependencies: ["MailTesting", "OutboundHTTP", "StrictJSON", "Cryptography"],
            path: "Tests/AppIntegrityTesting", swiftSettings: swiftSettings),
        // The client's test doubles (FakeAuthServer behind HTTPTransport, a hand-moved clock); client only.
        .target(
            name: "TokenClientTesting", dependencies: ["TokenClient", "TokenClientCore", "AuthAPI"],
            path: "Tests/TokenClientTesting",
            swiftSettings: swiftSettings),
    ]
)
