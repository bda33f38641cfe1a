import AppIntegrity
import Testing

@Suite struct IntegrityFailureReasonTests {
    @Test("every failure reason is a distinct lowercase snake_case metric label")
    func labelsAreDistinctSnakeCase() {
        let labels = IntegrityFailureReason.allCases.map(\.rawValue)
        #expect(Set(labels).count == labels.count)
        for label in labels {
            #expect(label.allSatisfy { $0 == "_" || ("a"..."z").contains($0) }, "\(label)")
        }
    }

    @Test("a malformed input reports the malformed reason and keeps its detail for the log")
    func malformedMapsToMalformedReason() {
        let error = IntegrityError.malformed("attestation is not base64")
        #expect(error.reason == .malformed)
        #expect(error.detail == "attestation is not base64")
        #expect(IntegrityError.failed(.counter, detail: "5 <= 7").reason == .counter)
    }
}
