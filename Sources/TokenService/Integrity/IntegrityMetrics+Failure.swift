import AppIntegrity
import HTTPServer
import Logging

extension IntegrityMetrics {
    /// Counts a failed check and logs it (`integrity check failed`, with route, reason and detail, never a token):
    /// the one record of a failure, for the gate and the exchange endpoints alike.
    /// - Parameter metadata: more log fields (the gate's `mode`).
    func recordFailure(
        _ failure: IntegrityError, route: Route, _ context: RequestContext, metadata: Logger.Metadata = [:]
    ) {
        failed(route, failure.reason)
        context.logger.warning(
            "integrity check failed",
            metadata: metadata.merging([
                "route": "\(route.rawValue)", "reason": "\(failure.reason.rawValue)", "detail": "\(failure.detail)",
            ]) { _, shared in shared })
    }
}
