import Testing

@testable import TokenService

/// `If-None-Match` per RFC 9110 §13.1.2: lists, `*`, weak comparison, and garbage ignored.
@Suite struct EntityTagConditionTests {
    private let tag = #""abc123""#

    @Test("no field is absent; the tag, W/ of it, a list holding it or * match")
    func matches() {
        #expect(EntityTagCondition.evaluate([], current: tag) == .absent)
        #expect(EntityTagCondition.evaluate([tag], current: tag) == .matches)
        #expect(EntityTagCondition.evaluate([#"W/"abc123""#], current: tag) == .matches)
        #expect(EntityTagCondition.evaluate([#""x", W/"abc123""#], current: tag) == .matches)
        #expect(EntityTagCondition.evaluate([#""x""#, tag], current: tag) == .matches)
        #expect(EntityTagCondition.evaluate(["*"], current: tag) == .matches)
        #expect(EntityTagCondition.evaluate([#" "x" ,, "abc123" "#], current: tag) == .matches)
    }

    @Test("other tags differ, and a field that is not a list of entity tags is ignored")
    func differsOrIgnored() {
        #expect(EntityTagCondition.evaluate([#""abc124""#], current: tag) == .differs)
        #expect(EntityTagCondition.evaluate([#""ABC123""#], current: tag) == .differs)
        #expect(EntityTagCondition.evaluate(["abc123"], current: tag) == .absent)
        #expect(EntityTagCondition.evaluate(["garbage \u{7f}"], current: tag) == .absent)
        #expect(EntityTagCondition.evaluate([#""abc123"#], current: tag) == .absent)
        #expect(EntityTagCondition.evaluate([#""a"b""#], current: tag) == .absent)
        #expect(EntityTagCondition.evaluate([""], current: tag) == .absent)
        #expect(EntityTagCondition.evaluate(["*, \"abc123\""], current: tag) == .absent)
    }
}
