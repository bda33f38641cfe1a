import Configuration
import StrictJSON
import VendorTokens

// `vendors` is a whole section like `identityProviders`: member names are the operator's. Its layer stores the
// names under `vendors` and each checked entry (secret files read) as one JSON text under `vendors.<name>`, marked
// secret; a higher layer that gives the section replaces the whole map.

extension ConfigurationKey {
    /// The reader values of checked vendors.
    static func vendorValues(
        _ vendors: [TokenServiceConfiguration.VendorSettings], path: String
    ) -> [(String, ConfigValue)] {
        var values: [(String, ConfigValue)] = [
            (path, ConfigValue(.stringArray(vendors.map(\.name)), isSecret: false))
        ]
        for vendor in vendors {
            let text = String(decoding: JSONValue.object(vendor.entry).serialized(), as: UTF8.self)
            values.append(("\(path).\(vendor.name)", ConfigValue(.string(text), isSecret: true)))
        }
        return values
    }
}

extension TokenServiceConfiguration {
    /// Reads `vendors` from the root reader.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the entry when a listed vendor has no entry (the
    ///   layers disagree): never a vendor silently dropped.
    static func vendors(reader: ConfigReader) throws(ConfigurationError) -> [VendorSettings] {
        var vendors: [VendorSettings] = []
        for name in reader.stringArray(forKey: "vendors") ?? [] {
            guard let text = reader.string(forKey: ConfigKey(["vendors", name]), isSecret: true),
                let entry = try? JSONParser.parseObject(Array(text.utf8))
            else {
                throw .invalidValue(
                    key: "vendors.\(name)", source: "",
                    reason: "listed without its entry (the configuration layers disagree); give the whole entry")
            }
            vendors.append(VendorSettings(name: name, entry: entry))
        }
        return vendors
    }
}
