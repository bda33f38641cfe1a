import AuthAPI
import HTTPServer
import Logging
import Store

extension PasskeyEndpoints {
    /// `GET /auth/passkeys` (access token) → 200 `{"passkeys": [...]}`, oldest first.
    func list(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try enabledVerifier()
        let caller = try await auth.authenticator.authenticate(request, now: auth.now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let passkeys: [Passkey]
        do {
            passkeys = try await store.passkeys(userID: caller.userID)
        } catch {
            throw AuthService.mapStore(error)
        }
        return try .json(PasskeyListResponse(passkeys: passkeys.map(Self.info)), headers: .noStore)
    }

    /// `PATCH /auth/passkeys/{id}` (access token) `{"name"}` → 200 `{"passkey"}`; 404 for an id that is not one of
    /// the caller's passkeys.
    func rename(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try enabledVerifier()
        let caller = try await auth.authenticator.authenticate(request, now: auth.now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let id = request.parameters["id"] ?? ""
        let name = try Self.name(try JSONRequestBody(request, allowed: ["name"]).string("name"))
        let renamed: Passkey?
        do {
            renamed = try await store.renamePasskey(credentialID: id, userID: caller.userID, name: name)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard let renamed else { throw ServiceError.notFound }
        return try .json(PasskeyResponse(passkey: Self.info(renamed)), headers: .noStore)
    }

    /// `DELETE /auth/passkeys/{id}` (access token) → 204; 404 for an id that is not one of the caller's passkeys;
    /// 409 `last_sign_in_method` when the account would keep no way to sign in.
    func delete(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try enabledVerifier()
        let caller = try await auth.authenticator.authenticate(request, now: auth.now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let id = request.parameters["id"] ?? ""
        let outcome: PasskeyDeletion
        do {
            outcome = try await store.deletePasskey(credentialID: id, userID: caller.userID, emailSignIn: emailSignIn)
        } catch {
            throw AuthService.mapStore(error)
        }
        switch outcome {
        case .deleted:
            context.logger.info("passkey deleted", metadata: ["user.id": "\(caller.userID)"])
            return HTTPResponse(status: .noContent, headers: .noStore)
        case .notFound: throw ServiceError.notFound
        case .lastSignInMethod: throw ServiceError.lastSignInMethod
        }
    }
}
