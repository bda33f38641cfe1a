import StrictJSON
import Testing

/// The shared configuration value checks, fed directly: each refusal's wording, as every configuration section
/// shows it after its key or member path.
@Suite struct JSONValueCheckTests {
    struct Refusal: Error, Equatable {
        let reason: String
    }

    struct Check: JSONValueCheck {
        func fail(_ reason: String) -> Refusal { Refusal(reason: reason) }
    }

    static func refusal(_ body: () throws(Refusal) -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.reason
        }
    }

    let check = Check()

    @Test("a string must have something besides whitespace; a wrong type is shown")
    func string() throws {
        #expect(try check.string(.string(" a ")) == " a ")
        #expect(Self.refusal { () throws(Refusal) in try check.string(.integer(42)) } == "expected a string, got 42")
        #expect(
            Self.refusal { () throws(Refusal) in try check.string(.string(" \n\t")) } == "expected a non-empty string")
    }

    @Test("a secret is never shown, and only the empty string is refused")
    func secret() throws {
        #expect(try check.secret(.string(" ")) == " ")
        #expect(Self.refusal { () throws(Refusal) in try check.secret(.integer(42)) } == "expected a string")
        #expect(Self.refusal { () throws(Refusal) in try check.secret(.string("")) } == "expected a non-empty string")
    }

    @Test("a choice is compared and returned in lower case")
    func choice() throws {
        #expect(try check.choice(.string("JSON"), of: ["json", "logfmt"]) == "json")
        #expect(
            Self.refusal { () throws(Refusal) in try check.choice(.string("xml"), of: ["json", "logfmt"]) }
                == #"expected one of json, logfmt, got "xml""#)
    }

    @Test("a string list is non-empty, of non-blank strings, without repeats")
    func stringList() throws {
        #expect(try check.stringList(.array([.string("a"), .string("b")])) == ["a", "b"])
        #expect(
            Self.refusal { () throws(Refusal) in try check.stringList(.string("a")) }
                == #"expected a list of strings, got "a""#)
        #expect(
            Self.refusal { () throws(Refusal) in try check.stringList(.array([])) }
                == "expected at least one string, got an empty list")
        #expect(
            Self.refusal { () throws(Refusal) in try check.stringList(.array([.string("a"), .string(" ")])) }
                == #"item 2 is not a non-empty string: " ""#)
        #expect(
            Self.refusal { () throws(Refusal) in try check.stringList(.array([.string("a"), .string("a")])) }
                == #"item 2 repeats "a""#)
    }
}
