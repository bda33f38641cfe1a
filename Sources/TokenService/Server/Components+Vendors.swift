import FoundationEssentials
import Logging
import StrictJSON
import VendorTokens

extension Components {
    /// The vendors of `vendors.<name>`, compiled (the loader has already checked each entry, so an error here means
    /// a configuration that did not come through `ConfigurationLoader`).
    static func vendors(
        _ settings: [TokenServiceConfiguration.VendorSettings], metrics: ServiceMetrics, logger: Logger
    ) throws(ConfigurationError) -> [String: Vendor] {
        var vendors: [String: Vendor] = [:]
        for vendor in settings {
            let entry: VendorEntry
            let access: VendorAccess
            do {
                entry = try VendorConfiguration.parse(name: vendor.name, entry: vendor.entry)
                access = try VendorAccess(entry: vendor.entry)
            } catch {
                throw ConfigurationValueCheck.configurationError(error, entryKey: "vendors.\(vendor.name)", source: "")
            }
            let source: Vendor.Source
            switch entry {
            case .template(let template):
                source = .signed(template)
                if template.activeKid == nil {
                    logger.warning(
                        "vendor configured without keys: POST /vend/\(vendor.name) answers 503 until keys are given",
                        metadata: ["vendor": "\(vendor.name)"])
                }
            case .moss(let moss):
                guard
                    let url = MossConfiguration.parseAuthURL(
                        moss.authURL ?? MossConfiguration.defaultAuthURL.absoluteString)
                else {
                    throw .invalidValue(key: "vendors.\(vendor.name).authURL", source: "", reason: "not an https URL")
                }
                let configuration = MossConfiguration(
                    projectId: moss.projectId, projectKey: moss.projectKey, authURL: url)
                source = .moss(
                    MossTokenCache(
                        upstream: MossHTTPUpstream(configuration: configuration), refreshAhead: .seconds(120),
                        logger: logger))
            }
            if VendorConfiguration.opensEveryRoom(vendor.entry) {
                let warning =
                    "vendor without roomsByRole: any signed-in user may join, publish and subscribe in any room "
                    + "through POST /vend/\(vendor.name); set roomsByRole (and roles) to limit it"
                logger.warning("\(warning)", metadata: ["vendor": "\(vendor.name)"])
            }
            vendors[vendor.name] = Vendor(
                source: source, access: access, issued: metrics.vendedTokens(vendor: vendor.name))
        }
        return vendors
    }

    /// `POST /stream-token`'s template: the `bloomreach-stream` preset over `stream.*`; nil without stream keys.
    static func streamTemplate(_ stream: TokenServiceConfiguration.Stream) throws(ConfigurationError) -> VendorTemplate?
    {
        guard let active = stream.activeKey else { return nil }
        let keys = stream.keys.map { key in
            JSONValue.object(["kid": .string(key.kid), "secret": .string(key.secret.value)])
        }
        let entry: JSONObject = [
            "preset": "bloomreach-stream", "keys": .array(keys), "activeKid": .string(active.kid),
            "ttlSeconds": .integer(Int64(stream.ttlSeconds)), "emailCustomerId": .bool(stream.emailCustomerId),
        ]
        do {
            guard case .template(let template) = try VendorConfiguration.parse(name: "stream", entry: entry) else {
                return nil
            }
            return template
        } catch {
            throw ConfigurationValueCheck.configurationError(error, entryKey: "stream", source: "")
        }
    }
}
