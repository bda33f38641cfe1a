import ArgumentParser
import Foundation
import JWT
import StrictJSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tokenvend jwt verify --jwks FILE|URL`: verifies a token against a JWK Set, as any third-party verifier would.
enum JWKSVerification {
    /// Prints the payload JSON of `token` when a key of the set named by `source` verifies it.
    /// - Throws: exit 1 when the token is refused, exit 2 when the set cannot be read or holds an unusable key.
    static func verify(_ token: String, against source: String, kid: String?) throws {
        let set: JWKSet
        do {
            set = try JWKSet(json: try load(source))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw JWTCommand.Support.usageError("--jwks \(source) is not a usable JWK Set: \(error)")
        }
        var keys: [JWTKey] = []
        for (index, jwk) in set.keys.enumerated() {
            do {
                keys.append(try JWTKey(jwk: jwk))
            } catch {
                throw JWTCommand.Support.usageError("--jwks \(source): key \(index) is not usable: \(error)")
            }
        }
        let verifier: JWTKeySet
        do {
            verifier = try JWTKeySet(keys: keys, signingKID: nil)
        } catch {
            throw JWTCommand.Support.usageError("--jwks \(source): \(error)")
        }
        do {
            if let kid {
                let header = try JWTKeySet.decode(token).header
                guard header["kid"]?.stringValue == kid else { throw JWTError.unknownKeyID }
            }
            let claims = try verifier.verify(token, options: VerificationOptions(requireKeyID: keys.count != 1))
            print(claims.object.jsonString)
        } catch {
            throw JWTCommand.Support.failure("invalid token: \(error)")
        }
    }

    /// The bytes of a file, or of an `https` URL (or `http` to a loopback host), at most `JWKSet.maximumByteCount`.
    static func load(_ source: String) throws -> [UInt8] {
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw JWTCommand.Support.usageError("cannot read --jwks \(source)")
            }
            return Array(data)
        }
        guard let url = URL(string: source), let host = url.host, isAllowed(url, host: host) else {
            throw JWTCommand.Support.usageError("--jwks must be an https URL (http only to a loopback address)")
        }
        return try fetch(url)
    }

    static func isAllowed(_ url: URL, host: String) -> Bool {
        if url.scheme == "https" { return true }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    private static func fetch(_ url: URL) throws -> [UInt8] {
        final class Box: @unchecked Sendable {
            var result: Result<(Data, URLResponse), any Error>?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let data, let response {
                box.result = .success((data, response))
            } else {
                box.result = .failure(error ?? URLError(.badServerResponse))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        switch box.result {
        case .success(let (data, response))?:
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else { throw JWTCommand.Support.usageError("--jwks \(url): HTTP status \(status)") }
            guard data.count <= JWKSet.maximumByteCount else {
                throw JWTCommand.Support.usageError("--jwks \(url): larger than \(JWKSet.maximumByteCount) bytes")
            }
            return Array(data)
        case .failure(let error)?:
            throw JWTCommand.Support.usageError("cannot fetch --jwks \(url): \(error.localizedDescription)")
        case nil:
            throw JWTCommand.Support.usageError("cannot fetch --jwks \(url)")
        }
    }
}
