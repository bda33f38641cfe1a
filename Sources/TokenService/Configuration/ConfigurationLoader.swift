import Configuration
import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds a ``TokenServiceConfiguration`` from its layers: built-in defaults, then the JSON file, then
/// `TOKENVEND_*` environment variables, then command-line flags; later layers win.
///
/// Each layer is checked in full against the key table (``ConfigurationKey/all``) and becomes an
/// `InMemoryProvider` of typed values; swift-configuration's `ConfigReader` layers them, and each component reads
/// its part with its own `init(reader:)` (`HTTPServer.Configuration`, ``TokenServiceConfiguration``'s sections).
///
/// ```swift
/// let loaded = try ConfigurationLoader.load(
///     configPath: options.config, environment: ProcessInfo.processInfo.environment,
///     overrides: ConfigurationOverrides(host: options.host, port: options.port, databasePath: options.database))
/// for note in loaded.notes { logger.warning("\(note)") }
/// ```
///
/// Unknown keys (in the file or as `TOKENVEND_*` variables), ill-typed or out-of-range values and inconsistent
/// keys stop the load with a ``ConfigurationError`` whose description is one line naming the key. Runs once at
/// start-up; not meant for a request path.
public enum ConfigurationLoader {
    /// The file read when no `--config` is given, if it exists (relative to the working directory).
    public static let defaultConfigPath = "Config/tokenvend.json"

    /// Loads, validates and prepares the configuration: ``resolve(configPath:environment:overrides:defaultConfigPath:)``
    /// then ``prepareStorage(_:)``.
    ///
    /// - Parameters:
    ///   - configPath: `--config PATH`; it must exist. `nil` reads `defaultConfigPath` when present.
    ///   - environment: the process environment (injectable for tests). Only `TOKENVEND_*` and `LOG_LEVEL` are read.
    ///   - overrides: the `--host`, `--port` and `--database` flags.
    ///   - defaultConfigPath: the file tried when `configPath` is `nil`. Default: `Config/tokenvend.json`.
    /// - Returns: the configuration, with access-token keys and the refresh secret always set, and notes to log
    ///   at warning level (development keys in use).
    /// - Throws: ``ConfigurationError``.
    public static func load(
        configPath: String? = nil,
        environment: [String: String],
        overrides: ConfigurationOverrides = ConfigurationOverrides(),
        defaultConfigPath: String = ConfigurationLoader.defaultConfigPath
    ) throws(ConfigurationError) -> ConfigurationLoadResult {
        let resolved = try resolve(
            configPath: configPath, environment: environment, overrides: overrides,
            defaultConfigPath: defaultConfigPath)
        let (configuration, notes) = try prepareStorage(resolved.configuration)
        return ConfigurationLoadResult(
            configuration: configuration, configFile: resolved.configFile, notes: notes,
            ignoredEnvironmentVariables: resolved.ignoredEnvironmentVariables)
    }

    /// Layers and validates the configuration without writing anything: the database folder is not created and
    /// missing development keys stay missing. Reads the configuration file and any `…File` secrets.
    /// - Throws: ``ConfigurationError``.
    public static func resolve(
        configPath: String? = nil,
        environment: [String: String],
        overrides: ConfigurationOverrides = ConfigurationOverrides(),
        defaultConfigPath: String = ConfigurationLoader.defaultConfigPath
    ) throws(ConfigurationError) -> ConfigurationLoadResult {
        try resolve(
            configPath: configPath, environment: environment, overrides: overrides,
            defaultConfigPath: defaultConfigPath, accessReporter: nil)
    }

    /// ``resolve(configPath:environment:overrides:defaultConfigPath:)`` with a reporter that sees every read.
    static func resolve(
        configPath: String?, environment: [String: String], overrides: ConfigurationOverrides,
        defaultConfigPath: String, accessReporter: (any AccessReporter)?
    ) throws(ConfigurationError) -> ConfigurationLoadResult {
        let table = Dictionary(ConfigurationKey.all.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var configFile: String?
        var fileLayer: [Entry] = []
        if let path = configPath
            ?? (FileManager.default.fileExists(atPath: defaultConfigPath) ? defaultConfigPath : nil)
        {
            fileLayer = try fileEntries(path: path, table: table)
            configFile = path
        }
        let (environmentLayer, serviceLinks) = try environmentEntries(environment, table: table)
        let libpqEnvironment = environment.filter { $0.key.hasPrefix("PG") }
        // Checked lowest layer first; ConfigReader takes the highest precedence first.
        let file = try provider(configFile ?? "defaults", fileLayer, table: table)
        let environment = try provider("environment", environmentLayer, table: table)
        let flags = try provider("flags", overrides.entries, table: table)
        let reader = ConfigReader(providers: [flags, environment, file], accessReporter: accessReporter)
        var configuration = try TokenServiceConfiguration(reader: reader)
        var sections: [String: ConfigurationSection] = [:]
        // Each layer's sections are parsed (and so checked); the highest layer's replaces the whole section.
        for layer in [fileLayer, environmentLayer, overrides.entries] {
            sections.merge(try Self.sections(layer, table: table)) { _, higher in higher }
        }
        for section in sections.values { section.apply(&configuration) }
        // After the sections: the templates are parsed with the final code length and app name.
        try configuration.email.loadMail(reader: reader.scoped(to: "email"))
        try checkDatabaseChoice(
            layers: [fileLayer, environmentLayer, overrides.entries], configuration: configuration,
            environment: libpqEnvironment)
        try validate(&configuration)
        return ConfigurationLoadResult(
            configuration: configuration, configFile: configFile, notes: [], ignoredEnvironmentVariables: serviceLinks)
    }

    /// One layer as a provider of checked values: each entry is checked against its key's type and range (errors
    /// name the key and the entry's source), `…File` secrets are read into their sibling key, and `secret` with
    /// `secretFile` in one layer is refused. ConfigReader then layers the providers.
    static func provider(
        _ name: String, _ entries: [Entry], table: [String: ConfigurationKey]
    ) throws(ConfigurationError) -> InMemoryProvider {
        try checkExclusiveSiblings(entries, table: table)
        let given = Set(entries.filter { $0.value != .null }.map(\.key))
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for entry in entries {
            guard let key = table[entry.key] else { continue }
            // `"secret": null` beside `"secretFile": "…"` must not undo the file's secret.
            if entry.value == .null, let sibling = key.exclusiveSibling, given.contains(sibling) { continue }
            for (path, value) in try key.values(entry.value, source: entry.source) {
                values[AbsoluteConfigKey(path.split(separator: ".").map(String.init))] = value
            }
        }
        return InMemoryProvider(name: name, values: values)
    }

    /// The sections one layer gives (``ConfigurationKey/Kind/section(example:parse:)``), each parsed by its owner.
    static func sections(
        _ entries: [Entry], table: [String: ConfigurationKey]
    ) throws(ConfigurationError) -> [String: ConfigurationSection] {
        var sections: [String: ConfigurationSection] = [:]
        for entry in entries {
            guard let key = table[entry.key], case .section(_, let parse) = key.kind else { continue }
            sections[key.path] = try parse(entry.value, ConfigurationValueCheck(key: key.path, source: entry.source))
        }
        return sections
    }

    /// One value for one key, with where it came from (a file path, an environment variable or a flag).
    struct Entry {
        var key: String
        var value: JSONValue
        var source: String
    }

    static func fileEntries(path: String, table: [String: ConfigurationKey]) throws(ConfigurationError) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file"
            throw .unreadableFile(path: path, reason: reason)
        }
        let root: JSONValue
        do {
            // Strict as request bodies: a member given twice is refused, not silently replaced.
            root = try JSONParser.parse(Array(data))
        } catch {
            throw .unreadableFile(path: path, reason: "not valid JSON (\(error))")
        }
        guard case .object(let sections) = root else {
            throw .unreadableFile(path: path, reason: "expected a JSON object at the top level")
        }
        let sectionNames = Set(table.keys.compactMap { $0.split(separator: ".").first.map(String.init) })
        var entries: [Entry] = []
        for (section, value) in sections.sorted(by: { $0.name < $1.name }).map({ ($0.name, $0.value) }) {
            guard sectionNames.contains(section) else {
                let closest = ConfigurationKey.closest(to: section.lowercased(), in: sectionNames.sorted()) {
                    $0.lowercased()
                }
                throw .unknownKey(key: section, source: path, suggestion: closest)
            }
            // A whole-section key (`identityProviders`): its members are names the operator chose.
            if table[section] != nil {
                entries.append(Entry(key: section, value: value, source: path))
                continue
            }
            guard case .object(let members) = value else {
                throw .invalidValue(key: section, source: path, reason: "expected an object, got \(value.summary)")
            }
            try memberEntries(members, under: section, path: path, table: table, into: &entries)
        }
        return entries
    }

    /// The entries of one object of the file: a member whose path is a key, or an object whose path is the prefix
    /// of keys (`email.smtp` of `email.smtp.url`), read the same way one level down.
    private static func memberEntries(
        _ members: JSONObject, under prefix: String, path: String, table: [String: ConfigurationKey],
        into entries: inout [Entry]
    ) throws(ConfigurationError) {
        for (member, memberValue) in members.sorted(by: { $0.name < $1.name }).map({ ($0.name, $0.value) }) {
            let key = "\(prefix).\(member)"
            if table[key] == nil, case .object(let nested) = memberValue,
                table.keys.contains(where: { $0.hasPrefix(key + ".") })
            {
                try memberEntries(nested, under: key, path: path, table: table, into: &entries)
                continue
            }
            guard table[key] != nil else {
                let closest = ConfigurationKey.closest(toPath: key, in: ConfigurationKey.all)
                throw .unknownKey(key: key, source: path, suggestion: closest?.path)
            }
            entries.append(Entry(key: key, value: memberValue, source: path))
        }
    }

    /// Variables of the command-line client (`tokenvend login`, `token`, `logout`), not server settings.
    static let clientEnvironmentNames: Set<String> = ["TOKENVEND_URL", "TOKENVEND_PASSWORD"]

    /// The entries of the `TOKENVEND_*` variables (and `LOG_LEVEL`), and the names of the Kubernetes service-link
    /// variables skipped (``KubernetesServiceLink``).
    static func environmentEntries(
        _ environment: [String: String], table: [String: ConfigurationKey]
    ) throws(ConfigurationError) -> (entries: [Entry], serviceLinks: [String]) {
        let byName = Dictionary(table.values.map { ($0.environmentName, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [Entry] = []
        var serviceLinks: [String] = []
        if environment["TOKENVEND_LOG_LEVEL"] == nil, let raw = environment["LOG_LEVEL"], let key = table["log.level"] {
            entries.append(
                Entry(key: key.path, value: try key.environmentValue(raw, source: "LOG_LEVEL"), source: "LOG_LEVEL"))
        }
        for (name, raw) in environment.sorted(by: { $0.key < $1.key })
        where name.hasPrefix("TOKENVEND_") && !clientEnvironmentNames.contains(name) {
            guard let key = byName[name] else {
                // A Service named `tokenvend` injects these into every pod of its namespace: not settings.
                if KubernetesServiceLink.matches(name: name, value: raw) {
                    serviceLinks.append(name)
                    continue
                }
                let closest = ConfigurationKey.closest(toEnvironmentName: name, in: ConfigurationKey.all)
                throw .unknownEnvironmentVariable(name, suggestion: closest?.path)
            }
            // An empty TOKENVEND_DATABASE_PATH unsets it, so that an image's default path gives way to database.url.
            let value =
                key.path == "database.path" && raw.trimmingWhitespace.isEmpty
                ? .null : try key.environmentValue(raw, source: name)
            entries.append(Entry(key: key.path, value: value, source: name))
        }
        return (entries, serviceLinks)
    }

    /// `secret` and `secretFile` for the same key in one layer is an error; across layers the later one wins.
    static func checkExclusiveSiblings(_ layer: [Entry], table: [String: ConfigurationKey]) throws(ConfigurationError) {
        let keys = Set(layer.filter { $0.value != .null }.map(\.key))
        for entry in layer where entry.key.hasSuffix("File") && entry.value != .null {
            guard let sibling = table[entry.key]?.exclusiveSibling, keys.contains(sibling) else { continue }
            throw .invalidValue(
                key: entry.key, source: entry.source, reason: "give either \(sibling) or \(entry.key), not both")
        }
    }
}
