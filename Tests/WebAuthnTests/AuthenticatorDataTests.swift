import CBOR
import Testing
import WebAuthn

@Suite("AuthenticatorData")
struct AuthenticatorDataTests {
    static func key() throws -> [UInt8] { try SoftwareCredential().coseKey() }

    @Test("reads the header, the flags and a big-endian counter")
    func header() throws {
        let bytes = try SoftwareCredential.authenticatorData(flags: 0x1D, signCount: 0x0102_0304)
        let data = try AuthenticatorData(bytes, requiresAttestedCredential: false)
        #expect(data.rpIDHash == Array(bytes[0..<32]))
        #expect(data.signCount == 0x0102_0304)
        #expect(data.userPresent && data.userVerified && data.backupEligible && data.backedUp)
        #expect(data.attestedCredential == nil)
    }

    @Test("reads the attested credential: AAGUID, id and the exact COSE key bytes")
    func attested() throws {
        let key = try Self.key()
        let bytes = try SoftwareCredential.authenticatorData(flags: 0x01, attested: ([1, 2, 3], key))
        let credential = try #require(try AuthenticatorData(bytes, requiresAttestedCredential: true).attestedCredential)
        #expect(credential.aaguid == [UInt8](repeating: 0xAA, count: 16))
        #expect(credential.credentialID == [1, 2, 3])
        #expect(credential.publicKeyBytes == key)
        #expect(credential.publicKey[3]?.intValue == -7)
    }

    @Test("accepts an extensions map after the credential, and refuses extensions that are not a map")
    func extensions() throws {
        let map = TestCBOR.encode(TestCBOR.map([(.text("credProtect"), CBORValue(2))]))
        let bytes = try SoftwareCredential.authenticatorData(
            flags: 0x01, attested: ([9], try Self.key()), extensions: map)
        #expect(try AuthenticatorData(bytes, requiresAttestedCredential: true).flags & 0x80 != 0)
        let notMap = try SoftwareCredential.authenticatorData(flags: 0x01, extensions: TestCBOR.encode(.text("x")))
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(notMap, requiresAttestedCredential: false) }
        let flagOnly = try SoftwareCredential.authenticatorData(flags: 0x81)
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(flagOnly, requiresAttestedCredential: false) }
    }

    @Test("every truncation and trailing bytes are malformed, never a crash")
    func truncated() throws {
        let bytes = try SoftwareCredential.authenticatorData(flags: 0x05, attested: (Array(0..<16), try Self.key()))
        for count in 0..<bytes.count {
            #expect(Self.error(Array(bytes[0..<count]), attested: false)?.isMalformed == true, "\(count) bytes")
        }
        #expect(Self.error(bytes + [0], attested: false)?.isMalformed == true)
    }

    @Test("a credential id length past the end is malformed; over 1023 bytes fails credential_id")
    func credentialIDLength() throws {
        let key = try Self.key()
        var bytes = try SoftwareCredential.authenticatorData(flags: 0x01, attested: ([1], key))
        bytes[53] = 0xFF  // the length's low byte: 0x00FF, past the end
        #expect(Self.error(bytes, attested: true)?.isMalformed == true)
        let long = try SoftwareCredential.authenticatorData(
            flags: 0x01, attested: (Array(repeating: 1, count: 1024), key))
        #expect(Self.error(long, attested: true) == .failed(.credentialID))
        let longest = try SoftwareCredential.authenticatorData(
            flags: 0x01, attested: (Array(repeating: 1, count: 1023), key))
        #expect(
            try AuthenticatorData(longest, requiresAttestedCredential: true).attestedCredential?.credentialID.count
                == 1023)
    }

    @Test("flag AT clear fails attested_credential only when a credential is required")
    func attestedRequired() throws {
        let bytes = try SoftwareCredential.authenticatorData(flags: 0x05)
        #expect(Self.error(bytes, attested: true) == .failed(.attestedCredential))
        #expect(Self.error(bytes, attested: false) == nil)
    }

    @Test("a credential key that is not a CBOR map is malformed")
    func keyNotMap() throws {
        let bytes = try SoftwareCredential.authenticatorData(flags: 0x01, attested: ([1], TestCBOR.encode(.bytes([1]))))
        #expect(Self.error(bytes, attested: true)?.isMalformed == true)
    }

    static func error(_ bytes: [UInt8], attested: Bool) -> WebAuthnError? {
        do {
            _ = try AuthenticatorData(bytes, requiresAttestedCredential: attested)
            return nil
        } catch {
            return error
        }
    }
}

extension WebAuthnError {
    var isMalformed: Bool {
        if case .malformed = self { return true }
        return false
    }
}
