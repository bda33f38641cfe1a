import AuthAPI
import Foundation
import HTTPServer
import StrictJSON
import Testing

@testable import TokenService

/// The wire contract in one place: every error code any layer sends is an `ErrorCode`, documented in API.md's
/// error table and in openapi.yaml's `Error` enum (and the reverse), and every fast writer's bytes decode to the
/// value they were written from.
@Suite struct WireContractTests {
    // MARK: - Error codes

    /// Every `HTTPServerError`, with an exhaustive switch so a new case cannot be forgotten here.
    static let httpServerErrors: [HTTPServerError] = [
        .malformed("x"), .headerTooLarge, .uriTooLong, .payloadTooLarge, .unsupportedTransferCoding,
        .unsupportedMethod, .requestTimeout, .unsupportedVersion, .socket(operation: "x", errno: 1), .alreadyStarted,
    ]
    static func arm(_ error: HTTPServerError) -> Int {
        switch error {
        case .malformed: 0
        case .headerTooLarge: 1
        case .uriTooLong: 2
        case .payloadTooLarge: 3
        case .unsupportedTransferCoding: 4
        case .unsupportedMethod: 5
        case .requestTimeout: 6
        case .unsupportedVersion: 7
        case .socket: 8
        case .alreadyStarted: 9
        }
    }

    static let serviceErrors: [ServiceError] = [
        .invalidRequest("x"), .weakPassword, .invalidCredentials, .invalidToken(presented: false),
        .invalidToken(presented: true), .invalidGrant, .insufficientScope, .csrfFailed, .registrationClosed,
        .notFound, .emailTaken, .unsupportedMediaType, .tooManyRequests(retryAfter: 1), .upstream("x"),
        .unavailable("x", retryAfter: 1), .invalidIDToken, .identityConflict, .invalidCode,
        .reauthenticationRequired(maxAge: 300), .integrityRequired, .integrityInvalid,
        .invalidDPoPProof(atTokenEndpoint: true), .invalidDPoPProof(atTokenEndpoint: false),
        .useDPoPNonce(nonce: "n", atTokenEndpoint: true), .useDPoPNonce(nonce: "n", atTokenEndpoint: false),
        .dpopSchemeMismatch, .invalidPasskey, .lastSignInMethod,
    ]
    static func arm(_ error: ServiceError) -> Int {
        switch error {
        case .invalidRequest: 0
        case .weakPassword: 1
        case .invalidCredentials: 2
        case .invalidToken: 3
        case .invalidGrant: 4
        case .insufficientScope: 5
        case .csrfFailed: 6
        case .registrationClosed: 7
        case .notFound: 8
        case .emailTaken: 9
        case .unsupportedMediaType: 10
        case .tooManyRequests: 11
        case .upstream: 12
        case .unavailable: 13
        case .invalidIDToken: 14
        case .identityConflict: 15
        case .invalidCode: 16
        case .reauthenticationRequired: 17
        case .integrityRequired: 18
        case .integrityInvalid: 19
        case .invalidDPoPProof: 20
        case .useDPoPNonce: 21
        case .dpopSchemeMismatch: 22
        case .invalidPasskey: 23
        case .lastSignInMethod: 24
        }
    }

    static let mossErrors: [MossError] = [
        .notConfigured, .upstreamUnavailable, .coolingDown(retryAfterSeconds: 1), .upstreamRejected(status: 401),
        .upstreamFailed(status: 500), .badUpstreamResponse,
    ]
    static func arm(_ error: MossError) -> Int {
        switch error {
        case .notConfigured: 0
        case .upstreamUnavailable: 1
        case .coolingDown: 2
        case .upstreamRejected: 3
        case .upstreamFailed: 4
        case .badUpstreamResponse: 5
        }
    }

    /// Every (status, code) an error type answers with.
    static var sentByErrorTypes: [(status: Int, code: String)] {
        let errors: [any HTTPResponseError] = httpServerErrors + serviceErrors + mossErrors
        return errors.map { ($0.status.code, $0.errorCode) }
    }

    static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageFolder.appendingPathComponent(path), encoding: .utf8)
    }

    /// Status and code literals passed to `HTTPResponse.error(status:code:…)` anywhere in Sources (the
    /// not-found, method-not-allowed and internal-error answers of HTTPServer, /readyz, …).
    static func literalCodesInSources() throws -> [(status: String, code: String)] {
        var found: [(String, String)] = []
        let sources = packageFolder.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let pattern = try Regex(#"status:\s*\.?([A-Za-z0-9:() ]+?),\s*code:\s*"([a-z_]+)""#)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in source.matches(of: pattern) {
                found.append((String(match.output[1].substring ?? ""), String(match.output[2].substring ?? "")))
            }
        }
        return found
    }

    /// API.md's error table: code → statuses (a DPoP code has a row for the token endpoints' 400 and one for the
    /// other routes' 401).
    static func documentedInAPI() throws -> [String: Set<Int>] {
        var table: [String: Set<Int>] = [:]
        let row = try Regex(#"^\| (\d{3}) \| `([a-z_]+)` \|"#)
        for line in try text("docs/API.md").split(separator: "\n") {
            if let match = try row.firstMatch(in: String(line)) {
                table[String(match.output[2].substring ?? ""), default: []].insert(
                    Int(match.output[1].substring ?? "") ?? 0)
            }
        }
        return table
    }

    /// The `enum` of `components.schemas.Error.properties.error` in openapi.yaml.
    static func documentedInOpenAPI() throws -> Set<String> {
        let lines = try text("docs/openapi.yaml").split(separator: "\n", omittingEmptySubsequences: false)
        guard let schema = lines.firstIndex(where: { $0 == "    Error:" }),
            let enumLine = lines[schema...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "enum:" })
        else { return [] }
        var codes: Set<String> = []
        for line in lines[(enumLine + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("- ") else { break }
            codes.insert(String(trimmed.dropFirst(2)))
        }
        return codes
    }

    @Test("the example lists name every case of HTTPServerError, ServiceError and MossError")
    func enumerationsAreComplete() {
        #expect(Set(Self.httpServerErrors.map(Self.arm)) == Set(0...9))
        #expect(Set(Self.serviceErrors.map(Self.arm)) == Set(0...24))
        #expect(Set(Self.mossErrors.map(Self.arm)) == Set(0...5))
    }

    @Test("every code any layer sends is an ErrorCode, in API.md's table with the same status, and in openapi.yaml")
    func sentCodesAreDocumented() throws {
        let known = Set(ErrorCode.allKnown.map(\.rawValue))
        let api = try Self.documentedInAPI()
        let openAPI = try Self.documentedInOpenAPI()
        let literals = try Self.literalCodesInSources()
        #expect(literals.contains { $0.code == "not_found" } && literals.contains { $0.code == "method_not_allowed" })
        let sent = Self.sentByErrorTypes.map(\.code) + literals.map(\.code)
        for code in sent {
            #expect(known.contains(code), "\(code) is not an ErrorCode")
            #expect(api[code] != nil, "\(code) is missing from docs/API.md's error table")
            #expect(openAPI.contains(code), "\(code) is missing from docs/openapi.yaml's Error enum")
        }
        for (status, code) in Self.sentByErrorTypes {
            #expect(
                api[code]?.contains(status) == true,
                "\(code) is sent with \(status), API.md says \(api[code]?.sorted() ?? [])")
        }
    }

    @Test("every ErrorCode is documented in API.md and openapi.yaml, and neither documents an unknown code")
    func documentedCodesAreKnown() throws {
        let known = Set(ErrorCode.allKnown.map(\.rawValue))
        #expect(known.count == ErrorCode.allKnown.count)
        #expect(Set(try Self.documentedInAPI().keys) == known)
        #expect(try Self.documentedInOpenAPI() == known)
    }

    @Test("ServiceError and MossError codes are ErrorCode values, and the HTTP mapping sends exactly them")
    func typedCodes() {
        for error in Self.serviceErrors { #expect(error.errorCode == error.code.rawValue) }
        for error in Self.mossErrors { #expect(error.errorCode == error.code.rawValue) }
        #expect(ServiceError.csrfFailed.code == .insufficientScope)
        #expect(MossError.upstreamUnavailable.code == .unavailable)
        #expect(MossError.badUpstreamResponse.code == .upstreamError)
    }

    // MARK: - Fast writers

    static let users = [
        User(id: "u-1", email: "a\"b\\c/d@example.com", role: "user", tenantId: nil),
        User(id: "u-2", email: "e@example.com", tenantId: "t-1"),
        User(id: "u-5", email: "v@example.com", emailVerified: true, role: "user", tenantID: nil),
        User(id: "u-3", email: "tab\there\n@example.com", role: "admin", tenantId: "é😀"),
        User(id: "u-4", email: nil, role: "user", tenantId: nil),
    ]

    /// What the server wrote before the fast writers (`JSONObject.serialized()`), to prove the bytes unchanged.
    /// An account without an email has no `email` member (issue 17); `emailVerified` is always there (issue 32).
    static func reference(_ user: User) -> JSONObject {
        accountMembers(
            first: .init(name: "id", value: .string(user.id)), user.email, user.emailVerified, user.role,
            user.tenantId)
    }

    /// `first`, then `email` when present, `emailVerified`, `role` and `tenantId` (`null` when absent).
    static func accountMembers(
        first: JSONObject.Member, _ email: String?, _ emailVerified: Bool, _ role: String, _ tenantId: String?
    ) -> JSONObject {
        var members = [first]
        if let email { members.append(.init(name: "email", value: .string(email))) }
        members.append(.init(name: "emailVerified", value: .bool(emailVerified)))
        members.append(.init(name: "role", value: .string(role)))
        members.append(.init(name: "tenantId", value: tenantId.map(JSONValue.string) ?? .null))
        return JSONObject(members)
    }

    @Test("an account without an email has no email member in the login and /auth/me bodies")
    func accountWithoutEmail() throws {
        let user = User(id: "u-4", email: nil, role: "user", tenantId: nil)
        #expect(
            String(decoding: TokenResponse(expiresIn: 900, user: user).jsonBytes(), as: UTF8.self)
                == #"{"expiresIn":900,"user":{"id":"u-4","emailVerified":false,"role":"user","tenantId":null}}"#)
        #expect(
            String(decoding: MeResponse(sub: "u-4", email: nil, role: "user").jsonBytes(), as: UTF8.self)
                == #"{"sub":"u-4","emailVerified":false,"role":"user","tenantId":null}"#)
        let encoded = try JSONEncoder().encode(user)
        #expect(!String(decoding: encoded, as: UTF8.self).contains(#""email":"#))
        #expect(try JSONDecoder().decode(User.self, from: encoded) == user)
        let me = try JSONDecoder().decode(
            MeResponse.self, from: Data(#"{"sub":"u-4","role":"user","tenantId":null}"#.utf8))
        #expect(me.email == nil)
        #expect(!me.emailVerified, "a server before issue 32 sent no emailVerified: it reads as false")
    }

    @Test("TokenResponse.jsonBytes decodes to the same value, has the expected bytes and equals JSONEncoder's output")
    func tokenResponse() throws {
        for user in Self.users {
            let bearer = TokenResponse.bearer(accessToken: "at.x.y", refreshToken: "rt", expiresIn: 900, user: user)
            let cookie = TokenResponse(expiresIn: 900, user: user)
            let bearerWithExpiries = TokenResponse.bearer(
                accessToken: "at.x.y", refreshToken: "rt", expiresIn: 900, expiresAt: 1_800_000_900,
                refreshExpiresAt: 1_802_592_000, user: user)
            let cookieWithExpiries = TokenResponse(
                expiresIn: 900, expiresAt: 1_800_000_900, refreshExpiresAt: 1_802_592_000, user: user)
            let onlyAccessExpiry = TokenResponse(expiresIn: 900, expiresAt: 1_800_000_900, user: user)
            for response in [bearer, cookie, bearerWithExpiries, cookieWithExpiries, onlyAccessExpiry] {
                let bytes = response.jsonBytes()
                #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(bytes)) == response)
                var members: [JSONObject.Member] = []
                if let token = response.accessToken {
                    members.append(.init(name: "accessToken", value: .string(token)))
                }
                if let token = response.refreshToken {
                    members.append(.init(name: "refreshToken", value: .string(token)))
                }
                if let type = response.tokenType { members.append(.init(name: "tokenType", value: .string(type))) }
                members.append(.init(name: "expiresIn", value: .integer(Int64(response.expiresIn))))
                if let at = response.expiresAt { members.append(.init(name: "expiresAt", value: .integer(at))) }
                if let at = response.refreshExpiresAt {
                    members.append(.init(name: "refreshExpiresAt", value: .integer(at)))
                }
                members.append(.init(name: "user", value: .object(Self.reference(user))))
                #expect(bytes == JSONObject(members).serialized())
                // JSONEncoder (what the Codable type itself writes): the same members with the same values.
                #expect(try Self.canonical(Data(bytes)) == Self.canonical(try JSONEncoder().encode(response)))
            }
        }
        let withExpiries = TokenResponse(
            expiresIn: 900, expiresAt: 1_800_000_900, refreshExpiresAt: 1_802_592_000, user: Self.users[0])
        #expect(
            String(decoding: withExpiries.jsonBytes(), as: UTF8.self).hasPrefix(
                #"{"expiresIn":900,"expiresAt":1800000900,"refreshExpiresAt":1802592000,"user":{"#))
        let cookie = TokenResponse(expiresIn: 900, user: User(id: "u-2", email: "e@example.com", tenantId: "t-1"))
        #expect(
            String(decoding: cookie.jsonBytes(), as: UTF8.self)
                == #"{"expiresIn":900,"user":{"id":"u-2","email":"e@example.com","emailVerified":false,"role":"user","#
                + #""tenantId":"t-1"}}"#)
        let bearer = TokenResponse.bearer(
            accessToken: "at.x.y", refreshToken: "rt", expiresIn: 900, user: Self.users[0])
        let bearerText = String(decoding: bearer.jsonBytes(), as: UTF8.self)
        #expect(bearerText.hasPrefix(#"{"accessToken":"at.x.y","refreshToken":"rt","tokenType":"Bearer","#))
        #expect(bearerText.hasSuffix(#""tenantId":null}}"#))
    }

    /// A JSON document re-serialized with sorted keys, so two writers' outputs compare by meaning, not by member
    /// order (JSONEncoder's is unspecified) or escaping choices.
    static func canonical(_ data: Data) throws -> String {
        let value = try JSONSerialization.jsonObject(with: data)
        return String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("an ID-token sign-in's TokenResponse ends with created, decodes to the same value, and login's has none")
    func tokenResponseCreated() throws {
        for created in [true, false] {
            let response = TokenResponse(expiresIn: 900, user: Self.users[0], created: created)
            let bytes = response.jsonBytes()
            #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(bytes)) == response)
            let members: [JSONObject.Member] = [
                .init(name: "expiresIn", value: .integer(900)),
                .init(name: "user", value: .object(Self.reference(Self.users[0]))),
                .init(name: "created", value: .bool(created)),
            ]
            #expect(bytes == JSONObject(members).serialized())
        }
        let login = TokenResponse(expiresIn: 900, user: Self.users[0])
        #expect(!String(decoding: login.jsonBytes(), as: UTF8.self).contains("created"))
    }

    @Test("VendedToken.jsonBytes decodes to the same value and has the bytes the server always sent")
    func vendedToken() throws {
        for token in [VendedToken(token: "a.b.c", expiresIn: 300), VendedToken(token: "q\"\\\u{1}", expiresIn: 0)] {
            let bytes = token.jsonBytes()
            #expect(try JSONDecoder().decode(VendedToken.self, from: Data(bytes)) == token)
            let reference: JSONObject = ["token": .string(token.token), "expiresIn": .integer(Int64(token.expiresIn))]
            #expect(bytes == reference.serialized())
        }
        #expect(!String(reflecting: VendedToken(token: "secret-token", expiresIn: 1)).contains("secret-token"))
    }

    @Test("MeResponse.jsonBytes decodes to the same value and has the bytes the server always sent")
    func meResponse() throws {
        for user in Self.users {
            let me = MeResponse(
                sub: user.id, email: user.email, emailVerified: user.emailVerified, role: user.role,
                tenantID: user.tenantId)
            let bytes = me.jsonBytes()
            #expect(try JSONDecoder().decode(MeResponse.self, from: Data(bytes)) == me)
            let reference = Self.accountMembers(
                first: .init(name: "sub", value: .string(me.sub)), me.email, me.emailVerified, me.role, me.tenantID)
            #expect(bytes == reference.serialized())
        }
    }
}
