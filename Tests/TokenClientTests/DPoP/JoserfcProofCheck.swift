import Foundation
import Testing

/// Verifies DPoP proofs with joserfc (`python3`), independently of TokenClient's code: one process for a batch.
///
/// For each proof it imports the header's `jwk`, verifies the signature with the header's `alg`, and reports the
/// protected header, the claims and joserfc's RFC 7638 thumbprint of the key.
enum JoserfcProofCheck {
    /// What joserfc read from one proof.
    struct Verified: Decodable {
        var header: [String: JSONValue]
        var claims: [String: JSONValue]
        var thumbprint: String
        var privateMembers: [String]
    }

    /// A JSON scalar or object, as far as the tests compare it.
    enum JSONValue: Decodable, Equatable {
        case string(String)
        case number(Double)
        case object([String: JSONValue])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let object = try? container.decode([String: JSONValue].self) {
                self = .object(object)
            } else {
                self = .other
            }
        }

        var string: String? {
            if case .string(let text) = self { return text }
            return nil
        }
    }

    private static let script = """
        import base64, json, sys, warnings
        warnings.simplefilter("ignore")
        from joserfc import jws
        from joserfc.jwk import JWKRegistry
        out = []
        for compact in json.load(sys.stdin):
            part = compact.split(".")[0]
            header = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
            key = JWKRegistry.import_key(header["jwk"])
            verified = jws.deserialize_compact(compact, key, algorithms=[header["alg"]])
            out.append({"header": verified.protected, "claims": json.loads(verified.payload),
                        "thumbprint": key.thumbprint(),
                        "privateMembers": sorted(set(header["jwk"]) & {"d", "p", "q", "dp", "dq", "qi"})})
        print(json.dumps(out))
        """

    /// Verifies `proofs`; a bad signature fails the Python side, and this throws.
    static func verify(_ proofs: [String]) throws -> [Verified] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(proofs))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0, "joserfc refused: \(String(decoding: failure, as: UTF8.self))")
        return try JSONDecoder().decode([Verified].self, from: data)
    }
}
