import FoundationEssentials
import Logging
import OutboundHTTP
import VendorTokens

extension Components {
    /// The vendors of `vendors.<name>`, as the loader compiled them.
    static func vendors(
        _ settings: [TokenServiceConfiguration.VendorSettings], metrics: ServiceMetrics, logger: Logger
    ) throws(ConfigurationError) -> [String: Vendor] {
        var vendors: [String: Vendor] = [:]
        for vendor in settings {
            let source: Vendor.Source
            switch vendor.entry {
            case .template(let template):
                source = .signed(template)
                if template.activeKid == nil {
                    logger.warning(
                        "vendor configured without keys: POST /vend/\(vendor.name) answers 503 until keys are given",
                        metadata: ["vendor": "\(vendor.name)"])
                }
            case .moss(let moss):
                let text = moss.authURL ?? MossConfiguration.defaultAuthURL.absoluteString
                guard OutboundURL.accepts(text), let url = URL(string: text) else {
                    throw .invalidValue(key: "vendors.\(vendor.name).authURL", source: "", reason: "not an https URL")
                }
                let configuration = MossConfiguration(
                    projectId: moss.projectId, projectKey: moss.projectKey, authURL: url)
                source = .moss(
                    MossTokenCache(
                        upstream: MossHTTPUpstream(configuration: configuration), refreshAhead: .seconds(120),
                        logger: logger))
            }
            if vendor.opensEveryRoom {
                let warning =
                    "vendor without roomsByRole: any signed-in user may join, publish and subscribe in any room "
                    + "through POST /vend/\(vendor.name); set roomsByRole (and roles) to limit it"
                logger.warning("\(warning)", metadata: ["vendor": "\(vendor.name)"])
            }
            vendors[vendor.name] = Vendor(
                source: source, access: vendor.access, issued: metrics.vendedTokens(vendor: vendor.name))
        }
        return vendors
    }

    /// `POST /stream-token`'s template: the `bloomreach-stream` preset over `stream.*`, as the loader compiled it;
    /// nil without stream keys.
    static func streamTemplate(_ stream: TokenServiceConfiguration.Stream) -> VendorTemplate? {
        guard case .template(let template)? = stream.vendor?.entry else { return nil }
        return template
    }
}
