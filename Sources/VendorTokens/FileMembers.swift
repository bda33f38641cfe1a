import StrictJSON

/// The `…File` members of an entry: a secret given as the path of a file that holds it.
enum FileMembers {
    /// The file members and the members they stand for.
    static let names = [
        "secretFile", "apiSecretFile", "apiKeySecretFile", "privateKeyFile", "projectKeyFile",
    ]

    /// `entry` with each `…File` member, at the top and inside `keys[]` entries, replaced in place by its sibling
    /// without `File`, holding the file's text with one trailing newline (`\n` or `\r\n`) removed.
    ///
    /// - Throws: `VendorTemplateError` naming the `…File` member when its sibling is given too, its value is not a
    ///   string, `readFile` fails (the message names the path, never the contents) or the file is empty.
    static func resolve(
        _ entry: JSONObject, readFile: (String) throws -> String
    ) throws(VendorTemplateError) -> JSONObject {
        var resolved = try resolveMembers(entry, path: "", readFile: readFile)
        if case .array(let keys)? = entry["keys"] {
            var resolvedKeys: [JSONValue] = []
            for (index, key) in keys.enumerated() {
                guard case .object(let object) = key else {
                    resolvedKeys.append(key)
                    continue
                }
                resolvedKeys.append(.object(try resolveMembers(object, path: "keys[\(index)]", readFile: readFile)))
            }
            resolved["keys"] = .array(resolvedKeys)
        }
        return resolved
    }

    private static func resolveMembers(
        _ object: JSONObject, path: String, readFile: (String) throws -> String
    ) throws(VendorTemplateError) -> JSONObject {
        guard object.contains(where: { names.contains($0.name) }) else { return object }
        var members: [JSONObject.Member] = []
        for member in object {
            guard names.contains(member.name) else {
                members.append(member)
                continue
            }
            let memberPath = path.isEmpty ? member.name : "\(path).\(member.name)"
            let sibling = String(member.name.dropLast("File".count))
            guard object[sibling] == nil else {
                throw VendorTemplateError(
                    path: memberPath, reason: "give either \(sibling) or \(member.name), not both")
            }
            guard case .string(let filePath) = member.value, !filePath.isEmpty else {
                throw VendorTemplateError(
                    path: memberPath, reason: "expected the path of a file, got \(member.value.typeName)")
            }
            let text: String
            do {
                text = try readFile(filePath)
            } catch {
                throw VendorTemplateError(path: memberPath, reason: "cannot read \"\(filePath)\": \(error)")
            }
            let value = withoutTrailingNewline(text)
            guard !value.isEmpty else {
                throw VendorTemplateError(path: memberPath, reason: "\"\(filePath)\" is empty")
            }
            members.append(JSONObject.Member(name: sibling, value: .string(value)))
        }
        return JSONObject(members)
    }

    /// `text` without one final `\n` (or `\r\n`), as `echo "$SECRET" > file` leaves it.
    static func withoutTrailingNewline(_ text: String) -> String {
        var bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "\n") else { return text }
        bytes.removeLast()
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
