import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ConfigurationValueCheck {
    /// The members an `accessToken.keys` entry may have.
    static let accessKeyMembers = ["alg", "kid", "privateKey", "privateKeyFile", "secret", "secretFile", "state"]

    /// Checks an `accessToken.keys` list: each entry `{"kid", "alg"?, "state"?}` plus `secret`/`secretFile` for
    /// HS512 or `privateKey`/`privateKeyFile` for ES256 and EdDSA, reading the files. A private key is parsed
    /// here, so a curve or key type that does not match `alg` (or an RSA key) is refused naming the entry and
    /// the layer it came from. Messages never show key material. Key strength, duplicate kids and the states
    /// of the whole set are checked once every layer is applied.
    func accessKeys(_ value: JSONValue) throws(ConfigurationError) -> [TokenServiceConfiguration.SigningKey] {
        let expected = #"expected a list of {"kid": "...", "secret": "..."} objects"#
        guard case .array(let items) = value else { throw fail("\(expected), got \(value.typeDescription)") }
        var keys: [TokenServiceConfiguration.SigningKey] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw ConfigurationError.invalidValue(
                    key: "\(key)[\(index)]", source: source, reason: "\(expected), got \(item.typeDescription)")
            }
            keys.append(try accessKey(members, index: index))
        }
        return keys
    }

    private func accessKey(
        _ members: JSONObject, index: Int
    ) throws(ConfigurationError) -> TokenServiceConfiguration.SigningKey {
        let known = Self.accessKeyMembers
        let itemKey = "\(key)[\(index)]"
        if let unknown = members.map(\.name).sorted().first(where: { !known.contains($0) }) {
            let closest = ConfigurationKey.closest(to: unknown, in: known) { $0 }
            throw ConfigurationError.unknownKey(
                key: "\(itemKey).\(unknown)", source: source, suggestion: closest.map { "\(itemKey).\($0)" })
        }
        let kid = try ConfigurationValueCheck(key: "\(itemKey).kid", source: source).string(members["kid"] ?? .null)
        // Errors past the kid name the entry by it: `accessToken.keys[kid=k2].alg`.
        let named = "\(key)[kid=\(kid)]"
        func member(_ name: String) -> ConfigurationValueCheck { .init(key: "\(named).\(name)", source: source) }
        let algorithm = try self.algorithm(members["alg"], check: member("alg"))
        var state: TokenServiceConfiguration.SigningKey.State?
        if let given = members["state"], given != .null {
            let names = TokenServiceConfiguration.SigningKey.State.allCases.map(\.rawValue)
            state = .init(rawValue: try member("state").choice(given, of: names))
        }
        let secretGiven = [members["secret"], members["secretFile"]].contains { $0 != nil && $0 != .null }
        let privateGiven = [members["privateKey"], members["privateKeyFile"]].contains { $0 != nil && $0 != .null }
        guard !algorithm.isSymmetric else {
            if privateGiven {
                let name = members["privateKey"] != nil ? "privateKey" : "privateKeyFile"
                throw member(name).fail("an HS512 key takes secret or secretFile; set alg to ES256 or EdDSA")
            }
            var signing = try secretKey(members, kid: kid, itemKey: itemKey)
            signing.state = state
            return signing
        }
        if secretGiven {
            let name = members["secret"] != nil ? "secret" : "secretFile"
            throw member(name).fail("an \(algorithm.rawValue) key takes privateKey or privateKeyFile, not a secret")
        }
        let text: String
        switch (members["privateKey"], members["privateKeyFile"]) {
        case (let inline?, nil):
            text = try member("privateKey").privateKeyText(inline)
        case (nil, let file?):
            let check = member("privateKeyFile")
            text = try check.privateKeyFile(at: try check.string(file))
        case (nil, nil):
            throw member("privateKey").fail("missing; give privateKey or privateKeyFile for \(algorithm.rawValue)")
        case (.some, .some):
            throw member("privateKeyFile").fail("give either privateKey or privateKeyFile, not both")
        }
        let privateKey = TokenServiceConfiguration.Secret(text)
        let given = members["privateKey"] != nil ? "privateKey" : "privateKeyFile"
        try AccessKeyMaterial.check(privateKey, kid: kid, algorithm: algorithm, check: member(given))
        return .init(kid: kid, algorithm: algorithm, privateKey: privateKey, state: state)
    }

    private func algorithm(
        _ value: JSONValue?, check: ConfigurationValueCheck
    ) throws(ConfigurationError) -> TokenServiceConfiguration.SigningKey.Algorithm {
        guard let value, value != .null else { return .hs512 }
        let names = TokenServiceConfiguration.SigningKey.Algorithm.allCases.map(\.rawValue)
        guard case .string(let name) = value else {
            throw check.fail("expected one of \(names.joined(separator: ", ")), got \(value.summary)")
        }
        if let algorithm = TokenServiceConfiguration.SigningKey.Algorithm(rawValue: name) { return algorithm }
        if name.uppercased().hasPrefix("RS") || name.uppercased().hasPrefix("PS") {
            throw check.fail(
                "RSA keys (\(value.summary)) are not allowed for signing access tokens; use ES256 or EdDSA")
        }
        throw check.fail("expected one of \(names.joined(separator: ", ")), got \(value.summary)")
    }

    /// An inline `privateKey`: PEM text, or a private JWK given as a JSON object (or as its JSON text); the object
    /// is kept as compact JSON text. The message never shows the value.
    func privateKeyText(_ value: JSONValue) throws(ConfigurationError) -> String {
        switch value {
        case .string: return try secret(value)
        case .object: return String(decoding: value.serialized(), as: UTF8.self)
        default: throw fail("expected a PEM string or a private JWK object, got \(value.typeDescription)")
        }
    }

    /// Reads a private key file: it must exist, be a readable regular file to which other users have no access at
    /// all (no read, write or execute bit for "other": mode `o-rwx`, e.g. 0600 or 0640; `tokenvend keys generate
    /// --out` writes 0600), and hold UTF-8 text. The message names the path, never the contents.
    func privateKeyFile(at path: String) throws(ConfigurationError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw fail(
                "cannot read private key file \"\(path)\": \(errno == ENOENT ? "no such file" : "not accessible")")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw fail("cannot read private key file \"\(path)\": not a regular file")
        }
        guard info.st_mode & 0o007 == 0 else {
            let mode = "0" + String(info.st_mode & 0o777, radix: 8)
            throw fail(
                "private key file \"\(path)\" has mode \(mode), which gives other users access; a private key "
                    + "must have no permission bits for others (o-rwx): chmod 600 it (or 640)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw fail("cannot read private key file \"\(path)\": not readable")
        }
        guard let text = String(data: data, encoding: .utf8), !text.trimmingWhitespace.isEmpty else {
            throw fail("private key file \"\(path)\" is empty or not UTF-8 text")
        }
        return text.trimmingWhitespace
    }
}
