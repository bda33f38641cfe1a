import Testing

@testable import tokenvend

@Suite("Command-line password reading")
struct PasswordReaderTests {
    func reader(
        stdinFlag: Bool = false, environment: [String: String] = [:], terminal: Bool = false, stdin: String = "",
        prompt: @escaping () throws -> String? = {
            Issue.record("prompted"); return nil
        }
    ) -> PasswordReader {
        var bytes = Array(stdin.utf8).makeIterator()
        return PasswordReader(
            fromStandardInput: stdinFlag, environment: environment, standardInputIsTerminal: terminal,
            nextStandardInputByte: { bytes.next() }, promptWithoutEcho: prompt)
    }

    @Test(
        "--password-stdin reads the first line without its line ending",
        arguments: [
            "correct horse\n", "correct horse\r\n", "correct horse", "correct horse\nsecond line\n",
        ])
    func standardInputLine(input: String) throws {
        #expect(
            try reader(stdinFlag: true, environment: ["TOKENVEND_PASSWORD": "env"], stdin: input).read()
                == "correct horse")
    }

    @Test("--password-stdin keeps inner and leading spaces")
    func spacesKept() throws {
        #expect(try reader(stdinFlag: true, stdin: "  two words \n").read() == "  two words ")
    }

    @Test("--password-stdin refuses an empty line and an overlong one")
    func standardInputRefusals() {
        #expect(throws: ClientCommandError.usage("the password is empty")) {
            try reader(stdinFlag: true, stdin: "\n").read()
        }
        #expect(throws: ClientCommandError.self) {
            try reader(stdinFlag: true, stdin: String(repeating: "x", count: 5000)).read()
        }
    }

    @Test("TOKENVEND_PASSWORD is used when --password-stdin is absent, even at a terminal")
    func environmentVariable() throws {
        #expect(try reader(environment: ["TOKENVEND_PASSWORD": "from env"], terminal: true).read() == "from env")
    }

    @Test("at a terminal, without flag or variable, the user is prompted")
    func prompts() throws {
        #expect(
            try reader(environment: ["TOKENVEND_PASSWORD": ""], terminal: true, prompt: { "typed" }).read() == "typed")
    }

    @Test("a cancelled prompt is a cancellation")
    func cancelledPrompt() {
        #expect(throws: ClientCommandError.cancelled) { try reader(terminal: true, prompt: { nil }).read() }
    }

    @Test("without flag, variable or terminal it is a usage error")
    func noSource() {
        #expect(throws: ClientCommandError.self) { try reader(stdin: "ignored\n").read() }
        #expect(FailureReport(ClientCommandError.usage("x")).exitCode == 2)
    }

    func type(_ bytes: [UInt8]) -> PasswordLineEditor.Step {
        var editor = PasswordLineEditor()
        for byte in bytes {
            let step = editor.feed(byte)
            if step != .more { return step }
        }
        return .more
    }

    @Test("Enter or Return ends the typed line", arguments: [UInt8(0x0A), 0x0D])
    func enter(key: UInt8) {
        #expect(type(Array("pass word".utf8) + [key]) == .done("pass word"))
    }

    @Test("Backspace and Delete remove a whole character, even a multi-byte one", arguments: [UInt8(0x08), 0x7F])
    func backspace(key: UInt8) {
        #expect(type(Array("abé".utf8) + [key, key] + Array("z".utf8) + [0x0D]) == .done("az"))
        #expect(type([key, key, 0x61, 0x0D]) == .done("a"))
    }

    @Test("Control-U clears the line; other control characters but Tab are ignored")
    func killLineAndControls() {
        #expect(type(Array("wrong".utf8) + [0x15] + Array("right".utf8) + [0x0D]) == .done("right"))
        #expect(type([0x61, 0x1B, 0x09, 0x62, 0x0D]) == .done("a\tb"))
    }

    @Test("Control-C cancels; Control-D cancels only an empty line")
    func cancelKeys() {
        #expect(type([0x61, 0x03]) == .cancelled)
        #expect(type([0x04]) == .cancelled)
        #expect(type([0x61, 0x04, 0x62, 0x0D]) == .done("ab"))
    }
}
