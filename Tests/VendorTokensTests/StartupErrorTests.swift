import Testing
import VendorTokens

/// A configuration that must stop startup: the entry, and the path and a phrase of the reason it must report.
struct StartupCase: Sendable, CustomTestStringConvertible {
    let label: String
    let entry: String
    let path: String
    let phrase: String
    var testDescription: String { label }

    init(_ label: String, _ entry: String, path: String, _ phrase: String) {
        self.label = label
        self.entry = entry
        self.path = path
        self.phrase = phrase
    }
}

/// Entries built around one valid HS256 template.
enum Entries {
    static let key = #"[{"kid": "k1", "secret": "\#(Fixture.secret32)"}]"#

    /// A template with `claims` and `parameters` (JSON text) and any extra top-level members.
    static func template(
        claims: String = #"{"sub": "{{user.id}}", "exp": "{{exp}}"}"#, parameters: String? = nil, extra: String = "",
        alg: String = "HS256", keys: String = key
    ) -> String {
        var members = [#""alg": "\#(alg)""#, #""keys": \#(keys)"#, #""claims": \#(claims)"#]
        if let parameters { members.append(#""parameters": \#(parameters)"#) }
        if !extra.isEmpty { members.append(extra) }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A template declaring one parameter `p` with `declaration`, used as `"p": "{{param.p}}"`.
    static func parameter(_ declaration: String, name: String = "p") -> String {
        template(
            claims: #"{"exp": "{{exp}}", "v": "{{param.\#(name)}}"}"#, parameters: #"{"\#(name)": \#(declaration)}"#)
    }

    static let twilioSids = #""accountSid": "\#(Fixture.accountSid)", "apiKeySid": "\#(Fixture.apiKeySid)""#
}

@Suite struct StartupErrorTests {
    static let cases: [StartupCase] = [
        // Members and names.
        StartupCase("bad vendor name", Entries.template(), path: "", "vendor names match"),
        StartupCase(
            "unknown top-level member", Entries.template(extra: #""claim": {}"#), path: "claim", "unknown member"),
        StartupCase(
            "unknown member of a key", Entries.template(keys: #"[{"kid": "k1", "secrt": "x"}]"#),
            path: "keys[0].secrt", "unknown member"),
        StartupCase(
            "unknown member of a parameter", Entries.parameter(#"{"type": "string", "patern": "a"}"#),
            path: "parameters.p.patern", "unknown member"),
        StartupCase(
            "unknown member next to a preset", #"{"preset": "stream-chat", "apiKey": "k", "apiSecrt": "x"}"#,
            path: "apiSecrt", "unknown member"),
        StartupCase(
            "unknown preset", #"{"preset": "livekt"}"#, path: "preset", "did you mean livekit"),
        StartupCase(
            "a file member that was not resolved", Entries.template(keys: #"[{"kid": "k1", "secretFile": "/x"}]"#),
            path: "keys[0].secretFile", "resolvingFiles"),
        // Placeholders.
        StartupCase(
            "unknown placeholder", Entries.template(claims: #"{"sub": "{{user.name}}", "exp": "{{exp}}"}"#),
            path: "claims.sub", "unknown placeholder {{user.name}}"),
        StartupCase(
            "interpolation attempt",
            Entries.template(claims: #"{"greeting": "hello {{user.id}}", "exp": "{{exp}}"}"#),
            path: "claims.greeting", "there is no interpolation"),
        StartupCase(
            "two placeholders in one string",
            Entries.template(claims: #"{"x": {"y": ["{{user.id}}{{now}}"]}, "exp": "{{exp}}"}"#),
            path: "claims.x.y[0]", "there is no interpolation"),
        StartupCase(
            "param. of an undeclared parameter",
            Entries.template(claims: #"{"room": "{{param.room}}", "exp": "{{exp}}"}"#),
            path: "claims.room", "names no declared parameter"),
        StartupCase(
            "declared parameter used nowhere", Entries.template(parameters: #"{"room": {"type": "string"}}"#),
            path: "parameters.room", "used nowhere"),
        StartupCase(
            "missing exp", Entries.template(claims: #"{"sub": "{{user.id}}"}"#), path: "claims.exp", "missing"),
        StartupCase(
            "exp not the placeholder", Entries.template(claims: #"{"exp": 1700000000}"#), path: "claims.exp",
            "must be exactly \"{{exp}}\""),
        StartupCase(
            "exp as {{now}}", Entries.template(claims: #"{"exp": "{{now}}"}"#), path: "claims.exp",
            "must be exactly"),
        StartupCase("no claims", #"{"alg": "HS256"}"#, path: "claims", "missing"),
        // Lifetime.
        StartupCase(
            "ttl over the default max", Entries.template(extra: #""ttlSeconds": 86401"#), path: "ttlSeconds",
            "over maxTtlSeconds 86400"),
        StartupCase(
            "ttl over the configured max", Entries.template(extra: #""ttlSeconds": 700, "maxTtlSeconds": 600"#),
            path: "ttlSeconds", "over maxTtlSeconds 600"),
        StartupCase(
            "ttl of zero", Entries.template(extra: #""ttlSeconds": 0"#), path: "ttlSeconds", "at least 1"),
        StartupCase(
            "ttl over Twilio's 24 h",
            #"{"preset": "twilio", \#(Entries.twilioSids), "ttlSeconds": 90000}"#, path: "ttlSeconds",
            "over maxTtlSeconds 86400"),
        StartupCase(
            "ttl as a string", Entries.template(extra: #""ttlSeconds": "60""#), path: "ttlSeconds",
            "expected an integer"),
        // Algorithm and keys.
        StartupCase("bad alg", Entries.template(alg: "HS257"), path: "alg", "expected one of HS256"),
        StartupCase("RS256 cannot sign", Entries.template(alg: "RS256"), path: "alg", "expected one of"),
        StartupCase("alg none", Entries.template(alg: "none"), path: "alg", "expected one of"),
        StartupCase(
            "short HMAC secret", Entries.template(keys: #"[{"kid": "k1", "secret": "short"}]"#),
            path: "keys[0].secret", "shorter than 32 bytes"),
        StartupCase(
            "HS512 secret of 32 bytes", Entries.template(alg: "HS512"), path: "keys[0].secret",
            "shorter than 64 bytes"),
        StartupCase(
            "short preset secret", #"{"preset": "stream-chat", "apiKey": "k", "apiSecret": "short"}"#,
            path: "apiSecret", "shorter than 32 bytes"),
        StartupCase(
            "activeKid naming no key", Entries.template(extra: #""activeKid": "k9""#), path: "activeKid",
            "names no key"),
        StartupCase(
            "activeKid without keys", Entries.template(extra: #""activeKid": "k1""#, keys: "[]"),
            path: "activeKid", "no keys are configured"),
        StartupCase(
            "duplicate kid",
            Entries.template(
                keys:
                    #"[{"kid": "k1", "secret": "\#(Fixture.secret32)"}, {"kid": "k1", "secret": "\#(Fixture.secret64)"}]"#
            ),
            path: "keys[1].kid", "duplicate kid"),
        StartupCase(
            "key without its secret", Entries.template(keys: #"[{"kid": "k1"}]"#), path: "keys[0].secret",
            "missing"),
        StartupCase(
            "HMAC key given a private key", Entries.template(keys: #"[{"kid": "k1", "privateKey": "x"}]"#),
            path: "keys[0].privateKey", "takes secret"),
        StartupCase(
            "ES256 key given a secret", Entries.template(alg: "ES256"), path: "keys[0].secret",
            "takes privateKey"),
        StartupCase(
            "ES256 key that is neither PEM nor JWK",
            Entries.template(alg: "ES256", keys: #"[{"kid": "k1", "privateKey": "not a key"}]"#),
            path: "keys[0].privateKey", "expected a PEM private key"),
        StartupCase(
            "EdDSA key that is an EC JWK",
            Entries.template(
                alg: "EdDSA",
                keys:
                    #"[{"kid": "k1", "privateKey": "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU\",\"y\":\"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0\",\"d\":\"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI\"}"}]"#
            ),
            path: "keys[0].privateKey", "not a usable EdDSA private key"),
        StartupCase(
            "ES256 public JWK",
            Entries.template(
                alg: "ES256",
                keys:
                    #"[{"kid": "k1", "privateKey": "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU\",\"y\":\"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0\"}"}]"#
            ),
            path: "keys[0].privateKey", "public key"),
        // Header.
        StartupCase(
            "alg in the header", Entries.template(extra: #""header": {"alg": "none"}"#), path: "header.alg",
            "comes from the template's alg"),
        StartupCase(
            "a literal kid", Entries.template(extra: #""header": {"kid": "k1"}"#), path: "header.kid",
            "kid must be \"{{key.kid}}\""),
        StartupCase(
            "another placeholder in the header", Entries.template(extra: #""header": {"sub": "{{user.id}}"}"#),
            path: "header.sub", "only placeholder allowed in the header"),
        StartupCase(
            "crit in the header", Entries.template(extra: #""header": {"crit": ["x"]}"#), path: "header.crit",
            "crit is refused"),
        // Other template members.
        StartupCase("bad jti", Entries.template(extra: #""jti": "uuid""#), path: "jti", "random or keyAndTime"),
        StartupCase(
            "bad response", Entries.template(extra: #""response": "json""#), path: "response", "token or livekit"),
        StartupCase(
            "serverURL without the livekit response", Entries.template(extra: #""serverURL": "wss://x""#),
            path: "serverURL", "only for"),
        StartupCase(
            "livekit response without serverURL", Entries.template(extra: #""response": "livekit""#),
            path: "serverURL", "missing"),
        // Parameters.
        StartupCase(
            "bad parameter name", Entries.parameter(#"{"type": "string"}"#, name: "9lives"),
            path: "parameters.9lives", "parameter names match"),
        StartupCase("parameter without type", Entries.parameter("{}"), path: "parameters.p.type", "missing"),
        StartupCase(
            "unknown parameter type", Entries.parameter(#"{"type": "number"}"#), path: "parameters.p.type",
            "expected one of string, integer, boolean, customerIds"),
        StartupCase(
            "parameter that is not an object", Entries.parameter(#""string""#), path: "parameters.p",
            "expected an object"),
        StartupCase(
            "invalid regex", Entries.parameter(#"{"type": "string", "pattern": "([a-z"}"#),
            path: "parameters.p.pattern", "invalid regular expression"),
        StartupCase(
            "invalid regex in allowedByRole",
            Entries.parameter(
                #"{"type": "string", "required": true, "allowedByRole": {"admin": "(", "user": "^a$"}}"#),
            path: "parameters.p.allowedByRole.admin", "invalid regular expression"),
        StartupCase(
            "allowedByRole on an optional parameter (a caller who leaves it out escapes the rule)",
            Entries.parameter(#"{"type": "string", "allowedByRole": {"user": "^a$"}}"#),
            path: "parameters.p.allowedByRole", "only on a required parameter"),
        StartupCase(
            "allowedByRole on a parameter with required false",
            Entries.parameter(#"{"type": "string", "required": false, "allowedByRole": {"user": "^a$"}}"#),
            path: "parameters.p.allowedByRole", "only on a required parameter"),
        StartupCase(
            "enum of wrong type", Entries.parameter(#"{"type": "string", "enum": ["a", 2]}"#),
            path: "parameters.p.enum[1]", "expected a string"),
        StartupCase(
            "empty enum", Entries.parameter(#"{"type": "string", "enum": []}"#), path: "parameters.p.enum",
            "at least one"),
        StartupCase(
            "enum on an integer", Entries.parameter(#"{"type": "integer", "enum": ["a"]}"#),
            path: "parameters.p.enum", "string parameters only"),
        StartupCase(
            "allowedByRole on a non-string", Entries.parameter(#"{"type": "integer", "allowedByRole": {}}"#),
            path: "parameters.p.allowedByRole", "string parameters only"),
        StartupCase(
            "minimum on a string", Entries.parameter(#"{"type": "string", "minimum": 1}"#),
            path: "parameters.p.minimum", "integer parameters only"),
        StartupCase(
            "maxLength over 4096", Entries.parameter(#"{"type": "string", "maxLength": 4097}"#),
            path: "parameters.p.maxLength", "1…4096"),
        StartupCase(
            "minimum above maximum", Entries.parameter(#"{"type": "integer", "minimum": 5, "maximum": 1}"#),
            path: "parameters.p.maximum", "below minimum 5"),
        StartupCase(
            "required as a string", Entries.parameter(#"{"type": "string", "required": "yes"}"#),
            path: "parameters.p.required", "expected true or false"),
        // Presets.
        StartupCase(
            "preset with claims", #"{"preset": "stream-chat", "claims": {"exp": "{{exp}}"}}"#, path: "claims",
            "the preset fixes claims; drop preset"),
        StartupCase(
            "preset with alg", #"{"preset": "bloomreach-stream", "alg": "HS256"}"#, path: "alg", "the preset fixes alg"),
        StartupCase(
            "preset with maxTtlSeconds", #"{"preset": "twilio", "maxTtlSeconds": 100000}"#, path: "maxTtlSeconds",
            "the preset fixes maxTtlSeconds"),
        StartupCase(
            "livekit without serverURL", #"{"preset": "livekit", "apiKey": "k", "apiSecret": "\#(Fixture.secret32)"}"#,
            path: "serverURL", "missing"),
        StartupCase(
            "livekit with an http serverURL",
            #"{"preset": "livekit", "apiKey": "k", "apiSecret": "\#(Fixture.secret32)", "serverURL": "http://lk"}"#,
            path: "serverURL", "wss://, ws:// or https://"),
        StartupCase(
            "livekit with an invalid roomsByRole pattern",
            #"{"preset": "livekit", "serverURL": "wss://lk", "roomsByRole": {"user": "[a-"}}"#,
            path: "roomsByRole.user", "invalid regular expression"),
        StartupCase(
            "livekit with a non-Boolean grant", #"{"preset": "livekit", "serverURL": "wss://lk", "canPublish": "no"}"#,
            path: "canPublish", "expected true or false"),
        StartupCase(
            "livekit secret without apiKey",
            #"{"preset": "livekit", "serverURL": "wss://lk", "apiSecret": "\#(Fixture.secret32)"}"#,
            path: "apiKey", "missing"),
        StartupCase(
            "apiSecret and keys together",
            #"{"preset": "stream-chat", "apiSecret": "\#(Fixture.secret32)", "keys": \#(Entries.key)}"#,
            path: "apiSecret", "not both"),
        StartupCase(
            "apiKey next to keys", #"{"preset": "stream-chat", "apiKey": "k", "keys": \#(Entries.key)}"#,
            path: "apiKey", "each key's kid is the apiKey"),
        StartupCase(
            "twilio with a malformed account sid",
            #"{"preset": "twilio", "accountSid": "AC123", "apiKeySid": "\#(Fixture.apiKeySid)"}"#,
            path: "accountSid", "Twilio sid"),
        StartupCase(
            "twilio with an account sid as key sid",
            #"{"preset": "twilio", "accountSid": "\#(Fixture.accountSid)", "apiKeySid": "\#(Fixture.accountSid)", "apiKeySecret": "\#(Fixture.secret32)"}"#,
            path: "apiKeySid", "SK and 32 hex digits"),
        StartupCase(
            "twilio key ring with a kid that is not a key sid",
            #"{"preset": "twilio", "accountSid": "\#(Fixture.accountSid)", "keys": \#(Entries.key)}"#,
            path: "keys[0].kid", "Twilio sid"),
        StartupCase(
            "twilio without accountSid", #"{"preset": "twilio"}"#, path: "accountSid", "missing"),
        StartupCase(
            "twilio with an invalid roomsByRole pattern",
            #"{"preset": "twilio", \#(Entries.twilioSids), "roomsByRole": {"user": "[a-"}}"#,
            path: "roomsByRole.user", "invalid regular expression"),
        // Access: roles and requireVerifiedEmail, on templates and presets alike.
        StartupCase(
            "an empty roles list", Entries.template(extra: #""roles": []"#), path: "roles", "at least one role"),
        StartupCase(
            "an empty roles list next to a preset", #"{"preset": "stream-chat", "apiKey": "k", "roles": []}"#,
            path: "roles", "at least one role"),
        StartupCase(
            "roles as a string", Entries.template(extra: #""roles": "admin""#), path: "roles", "expected an array"),
        StartupCase(
            "a role that is not a string", Entries.template(extra: #""roles": ["admin", 7]"#), path: "roles[1]",
            "expected a role string"),
        StartupCase(
            "an empty role", Entries.template(extra: #""roles": ["admin", ""]"#), path: "roles[1]", "must not be empty"),
        StartupCase(
            "requireVerifiedEmail as a string",
            #"{"preset": "moss", "projectId": "p", "projectKey": "k", "requireVerifiedEmail": "yes"}"#,
            path: "requireVerifiedEmail", "expected true or false"),
        StartupCase("moss without projectKey", #"{"preset": "moss", "projectId": "p"}"#, path: "projectKey", "missing"),
        StartupCase(
            "moss with an http authURL",
            #"{"preset": "moss", "projectId": "p", "projectKey": "k", "authURL": "http://moss.example"}"#,
            path: "authURL", "https"),
        StartupCase(
            "moss with keys", #"{"preset": "moss", "projectId": "p", "projectKey": "k", "keys": []}"#, path: "keys",
            "unknown member"),
    ]

    @Test("stops startup, naming the path and the rule", arguments: cases)
    func refuses(_ startup: StartupCase) throws {
        let name = startup.label == "bad vendor name" ? "Bad.Name" : "vendor"
        let error = try Fixture.startupError(startup.entry, name: name)
        #expect(error.path == startup.path)
        #expect(error.reason.contains(startup.phrase), "\(error.reason)")
    }

    @Test("an unknown member carries the closest allowed member's path as a suggestion")
    func suggestions() throws {
        let top = try Fixture.startupError(Entries.template(extra: #""claim": {}"#))
        #expect(top.kind == .unknownMember(suggestion: "claims"))
        let nested = try Fixture.startupError(Entries.parameter(#"{"type": "string", "patern": "a"}"#))
        #expect(nested.kind == .unknownMember(suggestion: "parameters.p.pattern"))
        let key = try Fixture.startupError(Entries.template(keys: #"[{"kid": "k1", "secrt": "x"}]"#))
        #expect(key.kind == .unknownMember(suggestion: "keys[0].secret"))
        let preset = try Fixture.startupError(#"{"preset": "livekit", "serverUrl": "wss://x"}"#)
        #expect(preset.kind == .unknownMember(suggestion: "serverURL"))
        #expect(preset.description == "serverUrl: unknown member serverUrl (did you mean serverURL?)")
    }

    @Test("other refusals are .invalid")
    func invalidKind() throws {
        let error = try Fixture.startupError(Entries.template(alg: "HS257"))
        #expect(error.kind == .invalid)
        #expect(error.description == "alg: expected one of HS256, HS384, HS512, ES256, EdDSA, got \"HS257\"")
    }

    @Test("no reason shows the secret, whatever is wrong with the key")
    func secretsNotShown() throws {
        let secret = "short-secret-value"
        let entries = [
            Entries.template(keys: #"[{"kid": "k1", "secret": "\#(secret)"}]"#),
            Entries.template(alg: "ES256", keys: #"[{"kid": "k1", "privateKey": "\#(secret)"}]"#),
            #"{"preset": "stream-chat", "apiKey": "k", "apiSecret": "\#(secret)"}"#,
            #"{"preset": "bloomreach-customer", "keyId": "k", "secret": "\#(secret)"}"#,
        ]
        for entry in entries {
            let error = try Fixture.startupError(entry)
            #expect(!error.description.contains(secret))
        }
    }
}
