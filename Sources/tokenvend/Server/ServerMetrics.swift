import CoreMetrics
import Prometheus

/// The server's metrics registry, and swift-metrics bootstrapped onto it once for the process.
enum ServerMetrics {
    /// A new registry, with swift-metrics bootstrapped to a `PrometheusMetricsFactory` over it: metrics that
    /// libraries emit through swift-metrics land in the registry `/metrics` renders. Hand it to `TokenServer`.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(factory(for: registry))
        return registry
    }

    /// The swift-metrics factory over `registry`, with swift-prometheus's defaults (names and labels as given).
    static func factory(for registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        PrometheusMetricsFactory(registry: registry)
    }
}
