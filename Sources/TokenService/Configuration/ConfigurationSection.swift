import IdentityProviders
import StrictJSON
import WebAuthn

/// A structured value of the configuration (`identityProviders`, `vendors`, whose member names are the operator's,
/// and the key lists `accessToken.keys` and `stream.keys`), parsed by the module that owns it: the loader hands the section's JSON value (from each layer that gives it) to
/// its key's `parse` once, and the highest layer's result replaces the whole section of the configuration.
/// `null` (or an empty environment variable) unsets the section.
struct ConfigurationSection: Sendable {
    /// Parses one layer's value of the section; `check` names the key and the layer for errors.
    typealias Parse =
        @Sendable (_ value: JSONValue, _ check: ConfigurationValueCheck) throws(ConfigurationError) ->
        ConfigurationSection

    /// Sets the parsed section on the configuration.
    let apply: @Sendable (inout TokenServiceConfiguration) -> Void

    /// `identityProviders`, parsed by IdentityProviders (``IdentityProviderConfiguration``).
    static func identityProviders(
        _ value: JSONValue, check: ConfigurationValueCheck
    ) throws(ConfigurationError) -> ConfigurationSection {
        guard value != .null else { return ConfigurationSection { $0.identity.providers = [] } }
        do throws(IdentityProviderConfigurationError) {
            let providers = try IdentityProviderConfiguration.parse(section: value, readFile: check.readSecretFile)
            return ConfigurationSection { $0.identity.providers = providers }
        } catch {
            let key = error.path.isEmpty ? check.key : "\(check.key).\(error.path)"
            switch error {
            case .unknownMember(let path, let allowed):
                let components = path.split(separator: ".").map(String.init)
                let entryKey = ([check.key] + components.dropLast()).joined(separator: ".")
                let unknown = components.last ?? ""
                let closest = ConfigurationKey.closest(to: unknown.lowercased(), in: allowed) { $0.lowercased() }
                throw .unknownKey(key: key, source: check.source, suggestion: closest.map { "\(entryKey).\($0)" })
            case .invalid(_, let reason):
                throw .invalidValue(key: key, source: check.source, reason: reason)
            }
        }
    }
}

extension ConfigurationValueCheck {
    /// Reads a secret file for a module's parse (``secretFile(at:)``): its error is the reason only (it names the
    /// path, never the contents).
    func readSecretFile(_ path: String) throws -> String {
        do throws(ConfigurationError) {
            return try secretFile(at: path).value
        } catch {
            guard case .invalidValue(key: _, source: _, let reason) = error else { throw error }
            throw SecretFileFailure(reason: reason)
        }
    }
}

/// A secret file that could not be read, as a module's `readFile` reports it: the reason only.
struct SecretFileFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

extension ConfigurationSection {
    /// `accessToken.keys`: a key list whose members may also give `alg`, `state` and a private key.
    static func accessKeys(_ value: JSONValue, check: ConfigurationValueCheck) throws(ConfigurationError) -> Self {
        let keys = value == .null ? [] : try check.accessKeys(value)
        return ConfigurationSection { $0.accessToken.keys = keys }
    }

    /// `stream.keys`: `[{"kid", "secret" | "secretFile"}]`.
    static func streamKeys(_ value: JSONValue, check: ConfigurationValueCheck) throws(ConfigurationError) -> Self {
        let keys = value == .null ? [] : try check.signingKeys(value)
        return ConfigurationSection { $0.stream.keys = keys }
    }
}

extension ConfigurationSection {
    /// `passkeys.androidApps`, parsed by WebAuthn (``PasskeyConfiguration/androidApps(section:)``).
    static func passkeyAndroidApps(
        _ value: JSONValue, check: ConfigurationValueCheck
    ) throws(ConfigurationError) -> ConfigurationSection {
        do throws(PasskeyConfigurationError) {
            let apps = value == .null ? [] : try PasskeyConfiguration.androidApps(section: value)
            return ConfigurationSection { $0.passkeys.androidApps = apps }
        } catch {
            throw .invalidValue(key: check.key + error.path, source: check.source, reason: error.reason)
        }
    }
}
