/// The parts of an access line that are the same on every line of one handler, computed once: the head after
/// `ts` (`level`, `label`, `msg`) and each server key with its separator, in the handler's format.
final class AccessLineTemplate: Sendable {
    /// `,"level":"info","label":"…","msg":"request"` (JSON) or ` level=info label=… msg=request` (logfmt).
    let head: [UInt8]
    /// `AccessLine.keys`, each as `,"key":` (JSON) or ` key=` (logfmt).
    let keys: [[UInt8]]

    init(label: String, format: StructuredLogHandler.Format) {
        head = LogLine.continuation(format: format) { line in
            line.field("level", "info")
            line.field("label", label)
            line.field("msg", "request")
        }
        keys = AccessLine.keys.map { LogLine.keyPrefix($0, format: format) }
    }
}
