public import StrictJSON

/// Reads `vendors.<name>` entries: resolves `…File` members, expands presets, compiles templates.
///
/// Pure: no I/O (files are read through the closure given to `resolvingFiles`), no clock, and no randomness but
/// the injected `randomID`.
///
/// ```swift
/// let resolved = try VendorConfiguration.resolvingFiles(entry) { path in try readSecretFile(path) }
/// let vendor = try VendorConfiguration.parse(name: "livekit", entry: resolved)
/// ```
public enum VendorConfiguration {
    /// Replaces every `…File` member (`secretFile`, `apiSecretFile`, `apiKeySecretFile`, `privateKeyFile`,
    /// `projectKeyFile`, also inside `keys[]` entries) by its sibling without `File`, holding `readFile(path)`'s
    /// text with one trailing newline removed.
    ///
    /// - Parameters:
    ///   - entry: The `vendors.<name>` object as configured.
    ///   - readFile: Reads a file's text; its errors become `VendorTemplateError`s naming the member and the path
    ///     (never the contents).
    /// - Returns: The entry without `…File` members.
    /// - Throws: `VendorTemplateError` naming the member when both forms are given, the path is not a string, or
    ///   `readFile` fails.
    public static func resolvingFiles(
        _ entry: JSONObject, readFile: (String) throws -> String
    ) throws(VendorTemplateError) -> JSONObject {
        try FileMembers.resolve(entry, readFile: readFile)
    }

    /// Parses one entry (files already resolved), expanding a preset, and compiles it.
    ///
    /// - Parameters:
    ///   - name: The vendor name (`vendors.<name>`); see `isVendorName`.
    ///   - entry: The entry after `resolvingFiles`.
    ///   - randomID: Makes the 128-bit `jti` (base64url of 16 random bytes); tests inject a fixed one.
    /// - Returns: A compiled template, or the Moss settings for `"preset": "moss"`.
    /// - Throws: `VendorTemplateError` naming the member path: unknown members (with a suggestion), refused values,
    ///   unknown placeholders, parameters declared but unused, a missing `exp`, a TTL over the maximum, unusable
    ///   keys, an `allowedByRole` on a parameter that is not `required`, refused `roles` or
    ///   `requireVerifiedEmail` (read by `VendorAccess(entry:)`, checked here too so one parse checks the entry).
    public static func parse(
        name: String, entry: JSONObject,
        randomID: @escaping @Sendable () -> String = VendorTemplate.randomID
    ) throws(VendorTemplateError) -> VendorEntry {
        guard isVendorName(name) else {
            throw VendorTemplateError(path: "", reason: "vendor names match [a-z0-9][a-z0-9_-]{0,31}")
        }
        _ = try VendorAccess(entry: entry)
        guard let presetValue = entry["preset"], presetValue != .null else {
            let allowed = TemplateSpec.templateMembers + ["preset"] + VendorAccess.members
            let reader = try MemberReader(entry, path: "", allowed: allowed)
            return .template(
                try VendorTemplate(name: name, spec: try TemplateSpec(template: reader), randomID: randomID))
        }
        let names = VendorPreset.allCases.map(\.rawValue)
        guard case .string(let presetName) = presetValue else {
            throw VendorTemplateError(
                path: "preset", reason: "expected one of \(names.joined(separator: ", ")), got \(presetValue.typeName)")
        }
        guard let preset = VendorPreset(rawValue: presetName) else {
            var reason = "unknown preset \"\(presetName)\"; known: \(names.joined(separator: ", "))"
            if let closest = EditDistance.closest(to: presetName, in: names) {
                reason =
                    "unknown preset \"\(presetName)\" (did you mean \(closest)?); known: \(names.joined(separator: ", "))"
            }
            throw VendorTemplateError(path: "preset", reason: reason)
        }
        for member in VendorPreset.fixedMembers where entry[member] != nil {
            throw VendorTemplateError(
                path: member, reason: "the preset fixes \(member); drop preset to write your own template")
        }
        let reader = try MemberReader(entry, path: "", allowed: preset.members + VendorAccess.members)
        return try preset.entry(name: name, reader: reader, randomID: randomID)
    }

    /// Whether the entry is a `livekit` or `twilio` preset without `roomsByRole`: every signed-in caller (within
    /// `roles`) may then join, publish and subscribe in any room, which TokenService warns about at startup.
    public static func opensEveryRoom(_ entry: JSONObject) -> Bool {
        let roomPresets = [VendorPreset.liveKit.rawValue, VendorPreset.twilio.rawValue]
        guard case .string(let preset)? = entry["preset"], roomPresets.contains(preset) else { return false }
        return entry["roomsByRole"] == nil || entry["roomsByRole"] == .null
    }

    /// Whether `name` is a vendor name: `[a-z0-9][a-z0-9_-]{0,31}`, safe in a URL path, a key path and a metric
    /// label.
    public static func isVendorName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 32, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
