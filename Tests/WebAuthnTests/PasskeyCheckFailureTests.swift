import Testing
import WebAuthn

@Suite("PasskeyCheckFailure")
struct PasskeyCheckFailureTests {
    @Test("every reason is a distinct snake_case metric label")
    func labelsAreDistinctSnakeCase() {
        let labels = PasskeyCheckFailure.allCases.map(\.rawValue)
        #expect(Set(labels).count == labels.count)
        for label in labels {
            #expect(label.allSatisfy { $0.isLowercase || $0 == "_" }, "\(label)")
        }
    }
}
