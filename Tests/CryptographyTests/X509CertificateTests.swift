import Cryptography
import Foundation
import Testing

/// A chain made by scripts/fake_app_attest.py --print-chain (Python `cryptography`), once per test process.
private struct Chain: Decodable {
    var root: String
    var otherRoot: String
    var intermediate: String
    var leaf: String
    var expiredLeaf: String
    var point: String
    var nonceExtension: String

    static let shared: Result<Chain, any Error> = Result {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/fake_app_attest.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--print-chain"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Chain.self, from: data)
    }

    static func bytes(_ base64: String) throws -> [UInt8] { [UInt8](try #require(Data(base64Encoded: base64))) }
}

@Suite struct X509CertificateTests {
    private let now = Int64(Date().timeIntervalSince1970)

    @Test("verifies leaf and intermediate to the pinned root now, and reads the nonce extension and the P-256 point")
    func verifiesChain() throws {
        let chain = try Chain.shared.get()
        let root = try X509Certificate(pem: chain.root)
        let leaf = try X509Certificate(der: try Chain.bytes(chain.leaf))
        let intermediate = try X509Certificate(der: try Chain.bytes(chain.intermediate))
        try leaf.verifyChain(intermediates: [intermediate], root: root, at: now)
        #expect(try leaf.extensionValue(oid: "1.2.840.113635.100.8.2") == (try Chain.bytes(chain.nonceExtension)))
        #expect(try leaf.extensionValue(oid: "1.2.3.4") == nil)
        #expect(try leaf.p256PublicPoint() == (try Chain.bytes(chain.point)))
        #expect(root.isSelfSigned && !leaf.isSelfSigned)
        #expect(root.publicKeyCurveName == "secp384r1")
        #expect(leaf.derBytes == (try Chain.bytes(chain.leaf)))
    }

    @Test("refuses another root, a missing intermediate, an expired leaf, and a time outside the validity")
    func refusesChains() throws {
        let chain = try Chain.shared.get()
        let root = try X509Certificate(pem: chain.root)
        let leaf = try X509Certificate(der: try Chain.bytes(chain.leaf))
        let intermediate = try X509Certificate(der: try Chain.bytes(chain.intermediate))
        let expired = try X509Certificate(der: try Chain.bytes(chain.expiredLeaf))
        #expect(throws: CryptographyError.certificateRejected(.untrusted)) {
            try leaf.verifyChain(
                intermediates: [intermediate], root: try X509Certificate(pem: chain.otherRoot), at: now)
        }
        #expect(throws: CryptographyError.certificateRejected(.untrusted)) {
            try leaf.verifyChain(intermediates: [], root: root, at: now)
        }
        #expect(throws: CryptographyError.certificateRejected(.expired)) {
            try expired.verifyChain(intermediates: [intermediate], root: root, at: now)
        }
        #expect(throws: CryptographyError.certificateRejected(.expired)) {
            try leaf.verifyChain(intermediates: [intermediate], root: root, at: now + 5 * 86_400)
        }
        #expect(throws: CryptographyError.certificateRejected(.notYetValid)) {
            try leaf.verifyChain(intermediates: [intermediate], root: root, at: now - 2 * 86_400)
        }
        #expect(throws: CryptographyError.invalidCertificate) {
            try leaf.verifyChain(intermediates: Array(repeating: intermediate, count: 5), root: root, at: now)
        }
    }

    @Test("refuses DER cut at every offset, trailing bytes, garbage and PEM that is not one certificate")
    func refusesMalformed() throws {
        let chain = try Chain.shared.get()
        let der = try Chain.bytes(chain.leaf)
        for count in 0..<der.count {
            #expect(throws: CryptographyError.invalidCertificate) { try X509Certificate(der: Array(der.prefix(count))) }
        }
        #expect(throws: CryptographyError.invalidCertificate) { try X509Certificate(der: der + [0]) }
        #expect(throws: CryptographyError.invalidCertificate) { try X509Certificate(der: [0x30, 0x80, 0x00, 0x00]) }
        for pem in ["", "not a PEM", chain.root + chain.otherRoot] {
            #expect(throws: CryptographyError.invalidCertificate) { try X509Certificate(pem: pem) }
        }
        #expect(throws: CryptographyError.invalidKey(.wrongKeyType)) {
            try X509Certificate(pem: chain.root).p256PublicPoint()
        }
    }

    @Test("checks DER ECDSA signatures strictly: valid, altered, trailing bytes, raw R‖S")
    func derSignatures() throws {
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        let message = Array("nonce".utf8)
        let raw = try key.signature(for: message)
        func der(_ scalar: ArraySlice<UInt8>) -> [UInt8] {
            var bytes = Array(scalar.drop { $0 == 0 })
            if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
            return [0x02, UInt8(bytes.count)] + bytes
        }
        let body = der(raw[0..<32]) + der(raw[32...])
        let signature = [0x30, UInt8(body.count)] + body
        #expect(try key.publicKey.isValidDERSignature(signature, for: message))
        #expect(try !key.publicKey.isValidDERSignature(signature, for: Array("other".utf8)))
        #expect(try !key.publicKey.isValidDERSignature(signature + [0], for: message))
        #expect(try !key.publicKey.isValidDERSignature(raw, for: message))
        #expect(try !key.publicKey.isValidDERSignature([], for: message))
    }
}
