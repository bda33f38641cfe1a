import Foundation
import Testing
import TokenServiceTesting

@Suite("Independent HS512 check used by the end-to-end tests")
struct IndependentJWSTests {
    @Test("the hand-written HMAC-SHA512 matches RFC 4231 test cases 1, 2 and 6")
    func rfc4231() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(
            hex(IndependentJWS.hmacSHA512(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854")
        #expect(
            hex(IndependentJWS.hmacSHA512(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
        #expect(
            hex(
                IndependentJWS.hmacSHA512(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598")
        #expect(
            hex(IndependentJWS.sha512([])).hasPrefix("cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce")
        )
    }
}
