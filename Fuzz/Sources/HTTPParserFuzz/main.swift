// libFuzzer entry for HTTPRequestParser: the input is split in two at its first byte's value, fed in two
// parts, and parsed to the end; any crash, trap or sanitizer report is a finding.
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Parses `parts` in order with small limits; returns the events and whether parsing failed.
func parse(_ parts: [UnsafeBufferPointer<UInt8>]) -> (events: [HTTPRequestParser.Event], failed: Bool) {
    var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 512, maxTargetBytes: 128, maxBodyBytes: 1024))
    var events: [HTTPRequestParser.Event] = []
    for part in parts {
        parser.append(UnsafeRawBufferPointer(part))
        do {
            while let event = try parser.next() {
                if case .head(let head) = event { precondition(head.target.utf8.count <= 128) }
                if case .complete(let body, _) = event { precondition(body.count <= 1024) }
                events.append(event)
            }
        } catch {
            return (events, true)
        }
    }
    return (events, false)
}

/// One input: the first byte picks a split point; the rest is parsed whole and in two parts, and both runs
/// must agree (feeding must never change what is parsed).
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 1 else { return 0 }
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let split = min(Int(data[0]), input.count)
    let whole = parse([input])
    let halves = parse([
        UnsafeBufferPointer(rebasing: input[..<split]), UnsafeBufferPointer(rebasing: input[split...]),
    ])
    precondition(whole.events == halves.events && whole.failed == halves.failed, "split changed the parse")
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = runFuzzerDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
exit(status)
