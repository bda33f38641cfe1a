import Cryptography
import Foundation
import Testing

/// Every vector of Wycheproof's P1363 ECDSA P-256 / SHA-256 file and of its Ed25519 file (see Wycheproof/README.md).
@Suite struct WycheproofTests {
    struct VectorFile: Decodable {
        let numberOfTests: Int
        let testGroups: [Group]
    }

    struct Group: Decodable {
        let publicKey: PublicKey
        let publicKeyPem: String
        let tests: [Vector]
    }

    struct PublicKey: Decodable {
        let wx: String?
        let wy: String?
        let pk: String?
    }

    struct Vector: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let msg: String
        let sig: String
        let result: String
    }

    static func load(_ name: String) throws -> VectorFile {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Wycheproof")
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try JSONDecoder().decode(VectorFile.self, from: data)
    }

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    /// A Wycheproof coordinate (big-endian, possibly with a leading zero byte) as 32 bytes.
    static func coordinate(_ hex: String?) -> [UInt8] {
        let bytes = Self.bytes(hex: hex ?? "")
        return Array(repeating: 0, count: max(0, 32 - bytes.count)) + bytes.suffix(32)
    }

    @Test("ES256 R‖S verification gives Wycheproof's answer for every P1363 vector (high S valid, wrong sizes not)")
    func ecdsaP1363() throws {
        let file = try Self.load("ecdsa_secp256r1_sha256_p1363_test.json")
        var count = 0
        for group in file.testGroups {
            // Load the key both ways: raw coordinates (JWK) and SPKI PEM; both must agree.
            let raw = try AsymmetricKey(
                p256X: Self.coordinate(group.publicKey.wx), y: Self.coordinate(group.publicKey.wy))
            let pem = try AsymmetricKey(pem: group.publicKeyPem, algorithm: .ecdsaP256SHA256)
            for vector in group.tests {
                let message = Self.bytes(hex: vector.msg)
                let signature = Self.bytes(hex: vector.sig)
                let expected = vector.result == "valid"
                #expect(
                    try raw.isValidSignature(signature, for: message) == expected,
                    "tcId \(vector.tcId): \(vector.comment)")
                #expect(try pem.isValidSignature(signature, for: message) == expected, "tcId \(vector.tcId)")
                count += 1
            }
        }
        #expect(count == file.numberOfTests)
    }

    @Test("Ed25519 verification gives Wycheproof's answer for every vector")
    func ed25519() throws {
        let file = try Self.load("ed25519_test.json")
        var count = 0
        for group in file.testGroups {
            let key = try AsymmetricKey(ed25519X: Self.bytes(hex: group.publicKey.pk ?? ""))
            let pem = try AsymmetricKey(pem: group.publicKeyPem, algorithm: .ed25519)
            for vector in group.tests {
                let message = Self.bytes(hex: vector.msg)
                let signature = Self.bytes(hex: vector.sig)
                let expected = vector.result == "valid"
                #expect(
                    try key.isValidSignature(signature, for: message) == expected,
                    "tcId \(vector.tcId): \(vector.comment)")
                #expect(try pem.isValidSignature(signature, for: message) == expected, "tcId \(vector.tcId)")
                count += 1
            }
        }
        #expect(count == file.numberOfTests)
    }
}
