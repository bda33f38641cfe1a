import Cryptography
import StrictJSON

/// The members of a classic Play Integrity verdict that tokenvend checks, read from the verified JWS payload.
/// Unknown members are allowed (Google adds fields); a missing member or one of the wrong type is `.malformed`.
struct PlayIntegrityPayload: Equatable {
    /// `requestDetails.nonce`.
    var nonce: String
    /// `requestDetails.requestPackageName`.
    var requestPackageName: String
    /// `requestDetails.timestampMillis` (a string of digits, as proto3 JSON writes int64, or a JSON integer).
    var timestampMillis: Int64
    /// `appIntegrity.packageName`.
    var packageName: String
    /// `appIntegrity.appRecognitionVerdict`.
    var appRecognitionVerdict: String
    /// `appIntegrity.certificateSha256Digest`, decoded (base64url; absent when the app is not recognised).
    var certificateDigests: [[UInt8]]
    /// `deviceIntegrity.deviceRecognitionVerdict` (absent or empty when the device meets nothing).
    var deviceRecognitionVerdicts: [String]

    /// Reads the members from `payload`.
    /// - Throws: `.malformed` naming the first member that is missing or of the wrong type.
    init(_ payload: JSONObject) throws(IntegrityError) {
        let request = try Self.object(payload, "requestDetails")
        let app = try Self.object(payload, "appIntegrity")
        let device = try Self.object(payload, "deviceIntegrity")
        nonce = try Self.string(request, "requestDetails.nonce", "nonce")
        requestPackageName = try Self.string(request, "requestDetails.requestPackageName", "requestPackageName")
        timestampMillis = try Self.millis(request["timestampMillis"])
        appRecognitionVerdict = try Self.string(app, "appIntegrity.appRecognitionVerdict", "appRecognitionVerdict")
        // Google leaves packageName and the digests out of an UNEVALUATED verdict.
        packageName = app["packageName"] == nil ? "" : try Self.string(app, "appIntegrity.packageName", "packageName")
        certificateDigests = try Self.strings(app["certificateSha256Digest"], "appIntegrity.certificateSha256Digest")
            .map { (text) throws(IntegrityError) -> [UInt8] in
                guard let digest = Self.base64URL(text) else {
                    throw .malformed("appIntegrity.certificateSha256Digest holds a value that is not base64url")
                }
                return digest
            }
        deviceRecognitionVerdicts = try Self.strings(
            device["deviceRecognitionVerdict"], "deviceIntegrity.deviceRecognitionVerdict")
    }

    private static func object(_ payload: JSONObject, _ name: String) throws(IntegrityError) -> JSONObject {
        guard let object = payload[name]?.objectValue else { throw .malformed("\(name) is missing or not an object") }
        return object
    }

    private static func string(_ object: JSONObject, _ path: String, _ name: String) throws(IntegrityError) -> String {
        guard let value = object[name]?.stringValue else { throw .malformed("\(path) is missing or not a string") }
        return value
    }

    /// An optional array of strings (absent: empty).
    private static func strings(_ value: JSONValue?, _ path: String) throws(IntegrityError) -> [String] {
        guard let value else { return [] }
        guard let array = value.arrayValue else { throw .malformed("\(path) is not an array") }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else {
                throw .malformed("\(path) holds a value that is not a string")
            }
            strings.append(string)
        }
        return strings
    }

    private static func millis(_ value: JSONValue?) throws(IntegrityError) -> Int64 {
        switch value {
        case .integer(let millis)?:
            return millis
        case .string(let text)?
        where !text.isEmpty && text.utf8.count <= 18 && text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }):
            if let millis = Int64(text) { return millis }
        default:
            break
        }
        throw .malformed("requestDetails.timestampMillis is missing or not a string of digits")
    }

    /// Base64url, with or without its padding (Google writes the digests unpadded).
    private static func base64URL(_ text: String) -> [UInt8]? {
        var unpadded = Substring(text)
        while unpadded.hasSuffix("=") { unpadded = unpadded.dropLast() }
        guard text.count - unpadded.count <= 2 else { return nil }
        return Base64URL.decode(String(unpadded))
    }
}
