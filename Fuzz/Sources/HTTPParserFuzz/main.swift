// libFuzzer entry for HTTPRequestParser: the input is split in two at its first byte's value, fed in two
// parts, and parsed to the end; any crash, trap or sanitizer report is a finding.
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Feeds one input to a parser with small limits, in two parts, and drains every event.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = min(Int(bytes[0]), size - 1) + 1
    var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 512, maxTargetBytes: 128, maxBodyBytes: 1024))
    for part in [bytes[1..<split], bytes[split...]] {
        parser.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: part)))
        do {
            while let event = try parser.next() {
                if case .head(let head) = event { precondition(head.path.utf8.count <= 128) }
                if case .complete(let body, _) = event { precondition(body.count <= 1024) }
            }
        } catch {
            return 0
        }
    }
    return 0
}

var argc = CommandLine.argc
let status = runFuzzerDriver(&argc, CommandLine.unsafeArgv) { data, size in fuzzOne(data, size) }
exit(status)
