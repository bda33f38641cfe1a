import Foundation

/// A throw-away self-signed certificate for `localhost` and 127.0.0.1 (P-256, one day), made by the `openssl`
/// command line in a new temporary folder: the sink's STARTTLS/TLS key pair and the client's `caFile` at once.
public struct TestCertificate: Sendable {
    /// The certificate, PEM.
    public let certificatePath: String
    /// Its private key, PEM.
    public let keyPath: String

    /// Makes a new certificate and key.
    public init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        certificatePath = folder.appendingPathComponent("cert.pem").path
        keyPath = folder.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:TRUE",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SMTPSink.Failure(description: "openssl req failed (\(process.terminationStatus))")
        }
    }
}
