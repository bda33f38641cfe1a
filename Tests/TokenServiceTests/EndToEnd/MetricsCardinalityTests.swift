import Foundation
import HTTPServerTesting
import Testing
import TokenServiceTesting

/// Clients cannot create metric series: methods and paths they make up end in fixed labels.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct MetricsCardinalityTests {
    /// The number of sample lines in `/metrics`.
    static func seriesCount(_ server: TestServer) async throws -> Int {
        let response = try await server.request("GET", "/metrics")
        #expect(response.status == 200)
        return response.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
    }

    @Test("1000 made-up methods and 1000 unknown paths leave the number of series in /metrics unchanged")
    func fixedLabels() async throws {
        let environment = ["TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000000"]
        try await withTestServer(environment: environment) { server in
            let port = server.port
            // One of each kind first, so the fixed series they end up in exist before counting.
            let warmUp = try await RawHTTP.offPool {
                [
                    try RawHTTP.status(port: port, "WARMUP / HTTP/1.1\r\nHost: a\r\n\r\n"),
                    try RawHTTP.status(port: port, "GET /warm-up HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"),
                ]
            }
            #expect(warmUp == [501, 404])
            _ = try await Self.seriesCount(server)
            let before = try await Self.seriesCount(server)
            let statuses = try await RawHTTP.offPool {
                var seen: [Int: Int] = [:]
                for index in 0..<1000 {
                    let method = index % 2 == 0 ? "M\(index)ETHOD" : "get\(index)"
                    let made = "\(method) / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    seen[try RawHTTP.status(port: port, made), default: 0] += 1
                    let path = "/unknown/\(index)-\(UUID().uuidString)"
                    let request = "GET \(path) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    seen[try RawHTTP.status(port: port, request), default: 0] += 1
                }
                return seen
            }
            #expect(statuses == [501: 1000, 404: 1000])
            let after = try await Self.seriesCount(server)
            #expect(after == before)
            let body = try await server.request("GET", "/metrics").text
            #expect(!body.contains("M999ETHOD") && !body.contains("get1") && !body.contains("/unknown/"))
        }
    }
}
