import CBOR
import Cryptography
import Testing
import WebAuthn

@Suite("COSEKey")
struct COSEKeyTests {
    static func error(_ bytes: [UInt8]) -> WebAuthnError? {
        do {
            _ = try COSEKey(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    static func p256() throws -> (x: [UInt8], y: [UInt8]) {
        guard case .p256(let x, let y) = try AsymmetricKey.generate(.ecdsaP256SHA256).publicComponents() else {
            throw CryptographyError.cryptoFailure
        }
        return (x, y)
    }

    @Test("reads P-256 and Ed25519 keys, keeps their bytes, and checks their signatures")
    func valid() throws {
        for algorithm in [COSEAlgorithm.es256, .edDSA] {
            let credential = try SoftwareCredential(algorithm)
            let key = try COSEKey(bytes: try credential.coseKey())
            #expect(key.algorithm == algorithm)
            #expect(key.bytes == (try credential.coseKey()))
            let signature = try credential.sign([1, 2, 3])
            #expect(key.isValidSignature(signature, for: [1, 2, 3]))
            #expect(!key.isValidSignature(signature, for: [1, 2, 4]))
            #expect(!key.isValidSignature([], for: [1, 2, 3]))
            #expect(!key.isValidSignature([0x30, 0x02, 0x02], for: [1, 2, 3]))
        }
    }

    @Test("an ES256 signature in raw R‖S form is not valid (WebAuthn sends DER)")
    func rawSignature() throws {
        let credential = try SoftwareCredential(.es256)
        let key = try COSEKey(bytes: try credential.coseKey())
        #expect(!key.isValidSignature(try credential.key.signature(for: [5]), for: [5]))
    }

    @Test("a P-256 point off the curve, or coordinates not 32 bytes, fail public_key")
    func badP256() throws {
        let (x, y) = try Self.p256()
        var offCurve = y
        offCurve[31] ^= 0x01
        #expect(Self.error(SoftwareCredential.cose(kty: 2, alg: -7, crv: 1, x: x, y: offCurve)) == .failed(.publicKey))
        #expect(
            Self.error(SoftwareCredential.cose(kty: 2, alg: -7, crv: 1, x: Array(x.dropFirst()), y: y))
                == .failed(.publicKey))
        #expect(Self.error(SoftwareCredential.cose(kty: 2, alg: -7, crv: 1, x: x)) == .failed(.publicKey))
    }

    @Test("an Ed25519 key of 31 or 33 bytes fails public_key")
    func badEd25519() {
        #expect(
            Self.error(SoftwareCredential.cose(kty: 1, alg: -8, crv: 6, x: Array(repeating: 1, count: 31)))
                == .failed(.publicKey))
        #expect(
            Self.error(SoftwareCredential.cose(kty: 1, alg: -8, crv: 6, x: Array(repeating: 1, count: 33)))
                == .failed(.publicKey))
    }

    @Test("an RSA-1024 modulus fails public_key")
    func weakRSA() {
        var modulus = [UInt8](repeating: 0xC5, count: 128)
        modulus[127] = 0x01
        let bytes = TestCBOR.encode(
            TestCBOR.map([
                (CBORValue(1), CBORValue(3)), (CBORValue(3), CBORValue(-257)), (CBORValue(-1), .bytes(modulus)),
                (CBORValue(-2), .bytes([1, 0, 1])),
            ]))
        #expect(Self.error(bytes) == .failed(.publicKey))
    }

    @Test("alg disagreeing with kty or crv, a missing alg, or ES384 fail algorithm")
    func algorithmMismatch() throws {
        let (x, y) = try Self.p256()
        #expect(Self.error(SoftwareCredential.cose(kty: 2, alg: -8, crv: 1, x: x, y: y)) == .failed(.algorithm))
        #expect(Self.error(SoftwareCredential.cose(kty: 1, alg: -7, crv: 1, x: x, y: y)) == .failed(.algorithm))
        #expect(Self.error(SoftwareCredential.cose(kty: 2, alg: -7, crv: 2, x: x, y: y)) == .failed(.algorithm))
        #expect(Self.error(SoftwareCredential.cose(kty: 3, alg: -7, crv: 1, x: x, y: y)) == .failed(.algorithm))
        #expect(Self.error(SoftwareCredential.cose(kty: 2, alg: nil, crv: 1, x: x, y: y)) == .failed(.algorithm))
        #expect(Self.error(SoftwareCredential.cose(kty: 2, alg: -35, crv: 2, x: x, y: y)) == .failed(.algorithm))
        #expect(Self.error(SoftwareCredential.cose(kty: 1, alg: -8, crv: 4, x: x)) == .failed(.algorithm))
    }

    @Test("bytes that are not one CBOR map are malformed")
    func notMap() throws {
        #expect(Self.error([])?.isMalformed == true)
        #expect(Self.error([0xFF])?.isMalformed == true)
        #expect(Self.error(TestCBOR.encode(.array([])))?.isMalformed == true)
        let key = try SoftwareCredential().coseKey()
        #expect(Self.error(key + [0])?.isMalformed == true)
    }
}
