/// The code guarantee: in the plain text, the code is the only run of exactly `codeLength` digits. Held in a
/// stronger form: no other run has `codeLength` digits *or more*, so a pattern without boundaries (`\d{6}`) finds
/// the code and nothing else.
///
/// A digit is any Unicode scalar whose numeric type is decimal (`0`–`9`, and `٣` or `３` too: a reader, or a
/// pattern such as Python's `\d`, may take them for digits). A run is a maximal sequence of such scalars.
enum DigitRuns {
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType == .decimal
    }

    /// Every run of digits in `text`, in order.
    static func runs(in text: String) -> [String] {
        var runs: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if isDigit(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                runs.append(current)
                current = ""
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// Whether `code` is the only run of its length or longer in `text`.
    static func isOnlyRun(_ code: String, in text: String) -> Bool {
        let length = code.unicodeScalars.count
        let matching = runs(in: text).filter { $0.unicodeScalars.count >= length }
        return matching == [code]
    }

    /// One item of a template's plain text before rendering, for the check at startup.
    enum Item {
        case digit, other, code, minutes
    }

    /// Why `items` could break the guarantee for `codeLength`, or `nil` when no rendering can.
    ///
    /// `{{minutes}}` renders as 1–4 digits (1–1440 minutes). A run holding `{{code}}` must be the code alone; a
    /// run without it must not be able to reach `codeLength` digits.
    static func problem(in items: [Item], codeLength: Int) -> String? {
        var run: [Item] = []
        for item in items + [.other] {
            if case .other = item {
                if let problem = problem(inRun: run, codeLength: codeLength) { return problem }
                run = []
            } else {
                run.append(item)
            }
        }
        return nil
    }

    private static func problem(inRun run: [Item], codeLength: Int) -> String? {
        guard !run.isEmpty else { return nil }
        let digits = run.count { if case .digit = $0 { true } else { false } }
        let minutes = run.count { if case .minutes = $0 { true } else { false } }
        if run.contains(where: { if case .code = $0 { true } else { false } }) {
            return run.count == 1 ? nil : "{{code}} must not touch other digits or {{minutes}}"
        }
        guard digits + 4 * minutes >= codeLength else { return nil }
        return minutes == 0
            ? "a run of \(codeLength) or more digits besides {{code}}: the code must be the only one"
            : "digits beside {{minutes}} could make a run of \(codeLength) digits: the code must be the only one"
    }
}
