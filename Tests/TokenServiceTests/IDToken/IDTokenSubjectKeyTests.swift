import Testing

@testable import TokenService

@Suite struct IDTokenSubjectKeyTests {
    @Test("a subject's failure key is provider:sub, and a long subject's its SHA-256, distinct per provider")
    func subjectKey() {
        #expect(AuthService.idTokenSubjectKey(provider: "apple", subject: "001234.abc") == "apple:001234.abc")
        #expect(AuthService.idTokenSubjectKey(provider: "google", subject: "001234.abc") == "google:001234.abc")
        let long = String(repeating: "s", count: 4000)
        let key = AuthService.idTokenSubjectKey(provider: "corp", subject: long)
        #expect(key.hasPrefix("corp:sha256:"))
        #expect(key.utf8.count == "corp:sha256:".utf8.count + 64)
        #expect(AuthService.idTokenSubjectKey(provider: "corp", subject: long + "t") != key)
    }
}
