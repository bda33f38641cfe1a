import DPoP
import Testing

@Suite struct DPoPTargetURITests {
    @Test func refusesARelativeReference() {
        #expect(DPoPTargetURI.normalized("/auth/login") == nil)
    }
}
