/// One template string split into literal text and placeholders.
struct TemplateText: Sendable, Equatable {
    /// A piece of a template.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// `{{code}}`, `{{minutes}}`, `{{appName}}`, `{{email}}`.
    enum Placeholder: String, Sendable, CaseIterable {
        case code, minutes, appName, email
    }

    let segments: [Segment]

    /// An empty text.
    init() {
        segments = []
    }

    /// Splits `text` at `{{name}}`; a `{{` that does not open a known placeholder is refused.
    ///
    /// - Throws: the reason, for the caller to put at the member's path.
    init(parsing text: String) throws(TemplateTextError) {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { segments.append(.literal(String(rest[..<open.lowerBound]))) }
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstRange(of: "}}") else {
                throw TemplateTextError(reason: "unclosed {{ (placeholders: \(Self.placeholderList))")
            }
            let name = String(afterOpen[..<close.lowerBound])
            guard let placeholder = Placeholder(rawValue: name) else {
                throw TemplateTextError(
                    reason: "unknown placeholder {{\(name)}} (placeholders: \(Self.placeholderList))")
            }
            segments.append(.placeholder(placeholder))
            rest = afterOpen[close.upperBound...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        self.segments = segments
    }

    static let placeholderList = Placeholder.allCases.map { "{{\($0.rawValue)}}" }.joined(separator: ", ")

    /// How many times `placeholder` appears.
    func count(_ placeholder: Placeholder) -> Int {
        segments.count { $0 == .placeholder(placeholder) }
    }

    /// The text with each placeholder replaced by `value(placeholder)`.
    func rendered(_ value: (Placeholder) -> String) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .literal(let text): result += text
            case .placeholder(let placeholder): result += value(placeholder)
            }
        }
        return result
    }
}

/// Why a template string was refused; the parser adds the member path.
struct TemplateTextError: Error {
    let reason: String
}
