import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationValueCheck {
    /// Reads a secret from a file (`…File` keys): the contents, trimmed of surrounding whitespace and newlines.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the key when the file is missing, unreadable, empty
    ///   or not UTF-8. The message names the path, never the contents.
    func secretFile(at path: String) throws(ConfigurationError) -> TokenServiceConfiguration.Secret {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw fail("cannot read secret file \"\(path)\": no such file")
        }
        guard !isDirectory, let data = FileManager.default.contents(atPath: path) else {
            throw fail("cannot read secret file \"\(path)\": not a readable file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw fail("secret file \"\(path)\" is not UTF-8 text")
        }
        let secret = text.trimmingWhitespace
        guard !secret.isEmpty else { throw fail("secret file \"\(path)\" is empty") }
        return TokenServiceConfiguration.Secret(secret)
    }

    /// Checks a key list `[{"kid", "secret" | "secretFile"}]`, reading secret files. Messages name the type of a
    /// misplaced value, never the value, since it may be a secret. Key strength, duplicate
    /// kids and `activeKid` are checked once every layer is applied.
    func signingKeys(_ value: JSONValue) throws(ConfigurationError) -> [TokenServiceConfiguration.SigningKey] {
        let expected = #"expected a list of {"kid": "...", "secret": "..."} objects"#
        guard case .array(let items) = value else { throw fail("\(expected), got \(value.typeDescription)") }
        var keys: [TokenServiceConfiguration.SigningKey] = []
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let members) = item else {
                throw ConfigurationError.invalidValue(
                    key: itemKey, source: source, reason: "\(expected), got \(item.typeDescription)")
            }
            let known = ["kid", "secret", "secretFile"]
            if let unknown = members.map(\.name).sorted().first(where: { !known.contains($0) }) {
                let closest = ConfigurationKey.closest(to: unknown, in: known) { $0 }
                throw ConfigurationError.unknownKey(
                    key: "\(itemKey).\(unknown)", source: source, suggestion: closest.map { "\(itemKey).\($0)" })
            }
            let kidCheck = ConfigurationValueCheck(key: "\(itemKey).kid", source: source)
            let kid = try kidCheck.string(members["kid"] ?? .null)
            keys.append(try secretKey(members, kid: kid, itemKey: itemKey))
        }
        return keys
    }

    /// The HS512 form `{"kid", "secret" | "secretFile"}`, as `stream.keys` has it.
    func secretKey(
        _ members: JSONObject, kid: String, itemKey: String
    ) throws(ConfigurationError) -> TokenServiceConfiguration.SigningKey {
        let secret: TokenServiceConfiguration.Secret
        switch (members["secret"], members["secretFile"]) {
        case (let inline?, nil):
            secret = .init(try ConfigurationValueCheck(key: "\(itemKey).secret", source: source).secret(inline))
        case (nil, let file?):
            let check = ConfigurationValueCheck(key: "\(itemKey).secretFile", source: source)
            secret = try check.secretFile(at: try check.string(file))
        case (nil, nil):
            throw ConfigurationError.invalidValue(
                key: "\(itemKey).secret", source: source, reason: "missing; give secret or secretFile")
        case (.some, .some):
            throw ConfigurationError.invalidValue(
                key: "\(itemKey).secretFile", source: source, reason: "give either secret or secretFile, not both")
        }
        return .init(kid: kid, secret: secret)
    }
}
