/// Why a message could not be made: a value that would break or forge a header, or a rendering that would break
/// the code guarantee. Never holds the value itself (it may be an address or a code).
public enum MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// CR, LF or NUL in a value that goes into a header (`field`: `From`, `To`, `Subject`, `Message-ID`, or
    /// `appName` and `email` while rendering): header injection is refused, never cleaned.
    case controlCharacter(field: String)
    /// Not an address this module writes (`addr@host` or `Name <addr@host>`, ASCII address, dot-atom parts).
    case invalidAddress(field: String)
    /// The message id is not a dot-atom (letters, digits and `!#$%&'*+-/=?^_\`{|}~.`, no `@`).
    case invalidMessageID
    /// A code kind was rendered without a code, or with one that is not 6–10 ASCII digits (the configured
    /// `codeLength` when the templates were parsed with one).
    case invalidCode
    /// The rendered plain text would not show the code as its only run of exactly `codeLength` digits (a value
    /// given at rendering, such as another `appName`, brought one in).
    case codeNotUnique

    /// One line for the log.
    public var description: String {
        switch self {
        case .controlCharacter(let field): "\(field): CR, LF or NUL refused (header injection)"
        case .invalidAddress(let field): "\(field): not an email address (addr@host or Name <addr@host>)"
        case .invalidMessageID: "Message-ID: not a dot-atom"
        case .invalidCode: "the code is missing or not the configured number of digits"
        case .codeNotUnique: "the code would not be the only run of its length of digits in the plain text"
        }
    }
}
