// swift-tools-version:6.2
// Tools around the HTTPServer module, kept out of the main package because they need special flags:
// - HTTPParserFuzz: libFuzzer target for HTTPRequestParser (build with scripts/fuzz.sh).
// - healthz-server: a minimal GET /healthz server for load tests (wrk, slowhttptest).
import PackageDescription

let package = Package(
    name: "tokenvend-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tokenvend", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "HTTPParserFuzz",
            dependencies: [.product(name: "HTTPServer", package: "tokenvend")]
        ),
        .executableTarget(
            name: "healthz-server",
            dependencies: [.product(name: "HTTPServer", package: "tokenvend")]
        ),
    ]
)
