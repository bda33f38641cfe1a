import AppIntegrity
import FoundationEssentials
import HTTPServer
import IdentityProviders
import JWT
import Logging
import Store
import VendorTokens

extension Components {
    /// The app-integrity gate and `/integrity/*` from `integrity.*` (issue 34): integrity tokens signed with the
    /// access-token keys, the platforms' verifiers, App Check's keys through the shared provider key cache.
    /// - Throws: ``ConfigurationError`` for a root, key or app id a verifier refuses (the loader has checked them
    ///   already; only a configuration built by hand can fail here).
    static func integrity(
        _ configuration: TokenServiceConfiguration, keys: JWTKeySet, store: any IntegrityStoring,
        providerKeys: ProviderKeyCache, auth: AuthService, metrics: ServiceMetrics, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) throws(ConfigurationError) -> (IntegrityGate, IntegrityEndpoints) {
        let settings = configuration.integrity
        let tokens = IntegrityTokens(
            keys: keys, issuer: configuration.accessToken.issuer, lifetime: Int64(settings.tokenLifetimeSeconds),
            leeway: Int64(configuration.accessToken.leewaySeconds))
        var apple: AppAttestVerifier?
        var android: PlayIntegrityVerifier?
        var appCheck: IntegrityGate.AppCheck?
        do throws(IntegrityConfigurationError) {
            if let section = settings.apple {
                apple = try AppAttestVerifier(
                    appIDs: section.appIDs, allowDevelopment: section.allowDevelopment,
                    rootCertificatePEM: section.rootCertificatePEM)
            }
            if let section = settings.android { android = try PlayIntegrityVerifier(settings: section) }
            if let firebase = settings.firebase {
                let provider: IdentityProvider
                do {
                    provider = try IdentityProvider(
                        name: "firebase-app-check",
                        issuers: ["https://firebaseappcheck.googleapis.com/\(firebase.projectNumber)"],
                        jwksURL: firebase.jwksURL, audiences: ["projects/\(firebase.projectNumber)"])
                } catch {
                    throw IntegrityConfigurationError(path: "integrity.firebase", reason: "\(error)")
                }
                appCheck = IntegrityGate.AppCheck(
                    verifier: AppCheckVerifier(settings: firebase), provider: provider, keys: providerKeys)
            }
        } catch {
            throw .invalidValue(key: error.path, source: "", reason: error.reason)
        }
        if settings.allowDebugTokens {
            logger.warning(
                "integrity.allowDebugTokens is on: X-App-Integrity: debug:<secret> passes every integrity check; use it for simulators and CI only",
                metadata: ["debug_tokens": "\(settings.debugTokenHashes.count)"])
        }
        var vendorModes: [String: IntegrityMode] = [:]
        for vendor in configuration.vendors {
            if let mode = vendor.access.integrity.flatMap(IntegrityMode.init(rawValue:)) {
                vendorModes[vendor.name] = mode
            }
        }
        let gate = IntegrityGate(
            configuration: settings, tokens: tokens, dpop: auth.authenticator.dpop, appCheck: appCheck,
            vendorModes: vendorModes,
            metrics: metrics.integrity, now: now)
        let endpoints = IntegrityEndpoints(
            store: store, apple: apple, android: android, tokens: tokens, dpop: auth.authenticator.dpop,
            maxPendingChallenges: settings.maxPendingChallenges, metrics: metrics.integrity,
            limitAddress: { request in try await auth.limitAddress(request, bucket: "integrity:") }, now: now)
        return (gate, endpoints)
    }
}
