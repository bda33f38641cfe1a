import HTTPServer
import Testing

@testable import TokenService

@Suite struct KubernetesServiceLinkTests {
    /// Exactly what a Service `tokenvend` (port 8080/TCP named `http`, cluster IP 10.0.0.1) injects.
    static let injected = [
        "TOKENVEND_PORT": "tcp://10.0.0.1:8080",
        "TOKENVEND_PORT_8080_TCP": "tcp://10.0.0.1:8080",
        "TOKENVEND_PORT_8080_TCP_ADDR": "10.0.0.1",
        "TOKENVEND_PORT_8080_TCP_PORT": "8080",
        "TOKENVEND_PORT_8080_TCP_PROTO": "tcp",
        "TOKENVEND_SERVICE_HOST": "10.0.0.1",
        "TOKENVEND_SERVICE_PORT": "8080",
        "TOKENVEND_SERVICE_PORT_HTTP": "8080",
    ]

    @Test("every variable a Service named tokenvend injects is a service link")
    func injectedShapes() {
        for (name, value) in Self.injected {
            #expect(KubernetesServiceLink.matches(name: name, value: value), "\(name)=\(value)")
        }
    }

    @Test(
        "other protocols, IPv6 clusters and other port names are service links too",
        arguments: [
            ("TOKENVEND_PORT", "udp://10.0.0.1:53"),
            ("TOKENVEND_PORT", "tcp://[fd00::1]:8080"),
            ("TOKENVEND_PORT_53_UDP", "udp://10.0.0.1:53"),
            ("TOKENVEND_PORT_9000_SCTP_PROTO", "sctp"),
            ("TOKENVEND_PORT_8080_TCP_ADDR", "fd00::1"),
            ("TOKENVEND_SERVICE_HOST", "fd00::1"),
            ("TOKENVEND_SERVICE_PORT_METRICS_2", "9090"),
            ("TOKENVEND_SERVICE_PORT_H2C", "8081"),
        ]
    )
    func otherShapes(name: String, value: String) {
        #expect(KubernetesServiceLink.matches(name: name, value: value))
    }

    /// Near misses: a name Kubernetes never produces, or a link name whose value Kubernetes would never give it
    /// (most likely an operator's mistake, which must stop startup with a suggestion rather than be dropped).
    @Test(
        "near misses are not service links",
        arguments: [
            ("TOKENVEND_PORTS", "tcp://10.0.0.1:8080"),
            ("TOKENVEND_SERVICE_HOSTNAME", "10.0.0.1"),
            ("TOKENVEND_SERVICE_HOST_HTTP", "10.0.0.1"),
            ("TOKENVEND_SERVICE_PORT_", "8080"),
            ("TOKENVEND_SERVICE_PORT__HTTP", "8080"),
            ("TOKENVEND_SERVICE_PORT_HTTP_", "8080"),
            ("TOKENVEND_SERVICE_PORT_8080", "8080"),
            ("TOKENVEND_SERVICE_PORT_A_VERY_LONG_NAME", "8080"),
            ("TOKENVEND_SERVICE_PORT_http", "8080"),
            ("TOKENVEND_PORT_8080", "tcp://10.0.0.1:8080"),
            ("TOKENVEND_PORT_8080_HTTP", "tcp://10.0.0.1:8080"),
            ("TOKENVEND_PORT_8080_tcp", "tcp://10.0.0.1:8080"),
            ("TOKENVEND_PORT_08080_TCP", "tcp://10.0.0.1:8080"),
            ("TOKENVEND_PORT_70000_TCP", "tcp://10.0.0.1:70000"),
            ("TOKENVEND_PORT_8080_TCP_HOST", "10.0.0.1"),
            ("TOKENVEND_PORT_8080_TCP_ADDR_", "10.0.0.1"),
            ("TOKENVEND_PORT__TCP", "tcp://10.0.0.1:8080"),
            ("TOKENVEND_SERVER_HOST", "10.0.0.1"),
            ("TOKENVEND_DB_SERVICE_HOST", "10.0.0.1"),
            ("OTHER_SERVICE_HOST", "10.0.0.1"),
            // Right names, values Kubernetes never gives them.
            ("TOKENVEND_PORT", "8080"),
            ("TOKENVEND_PORT", "http://10.0.0.1:8080"),
            ("TOKENVEND_PORT", "TCP://10.0.0.1:8080"),
            ("TOKENVEND_PORT", "tcp://10.0.0.1"),
            ("TOKENVEND_PORT", "tcp://:8080"),
            ("TOKENVEND_PORT_8080_TCP", "tcp://10.0.0.1:9090"),
            ("TOKENVEND_PORT_8080_TCP", "udp://10.0.0.1:8080"),
            ("TOKENVEND_PORT_8080_TCP_PORT", "9090"),
            ("TOKENVEND_PORT_8080_TCP_PROTO", "udp"),
            ("TOKENVEND_PORT_8080_TCP_ADDR", ""),
            ("TOKENVEND_PORT_8080_TCP_ADDR", "10.0.0.1 ; rm"),
            ("TOKENVEND_SERVICE_HOST", ""),
            ("TOKENVEND_SERVICE_PORT", "http"),
            ("TOKENVEND_SERVICE_PORT", "0"),
            ("TOKENVEND_SERVICE_PORT", "65536"),
            ("TOKENVEND_SERVICE_PORT_HTTP", ""),
        ]
    )
    func nearMisses(name: String, value: String) {
        #expect(!KubernetesServiceLink.matches(name: name, value: value))
    }

    @Test("the loader skips the injected variables, reports them, and still applies real keys")
    func loaderSkipsServiceLinks() throws {
        let fixture = try ConfigurationFixture()
        var environment = Self.injected
        environment["TOKENVEND_SERVER_PORT"] = "9001"
        let loaded = try ConfigurationLoader.resolve(environment: environment, defaultConfigPath: fixture.noFile)
        #expect(loaded.configuration.server.port == 9001)
        #expect(loaded.ignoredEnvironmentVariables == Self.injected.keys.sorted())
    }

    @Test(
        "an unknown variable next to the injected ones still stops the load, naming the closest key",
        arguments: [
            ("TOKENVEND_SERVER_PROT", "1", "server.port"),
            ("TOKENVEND_PORT", "8080", "server.port"),
            ("TOKENVEND_PORTS", "tcp://10.0.0.1:8080", "server.port"),
            ("TOKENVEND_SERVICE_HOSTNAME", "10.0.0.1", "server.host"),
            ("TOKENVEND_DATABASE_PAHT", "x", "database.path"),
            ("TOKENVEND_REFRESH_TOKEN_SECRET_FLIE", "x", "refreshToken.secretFile"),
        ]
    )
    func unknownNextToServiceLinks(name: String, value: String, closest: String) throws {
        let fixture = try ConfigurationFixture()
        var environment = Self.injected
        environment[name] = value
        let error = try #require(fixture.error(environment: environment))
        #expect(error == .unknownEnvironmentVariable(name, suggestion: closest))
    }
}
