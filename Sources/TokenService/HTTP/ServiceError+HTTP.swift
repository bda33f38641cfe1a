public import HTTPServer

extension ServiceError: HTTPResponseError {
    public var status: HTTPStatus { HTTPStatus(code: statusCode) }
    public var errorCode: String { code }
    public var publicMessage: String { message }
    public var headers: HTTPHeaders {
        var fields = HTTPHeaders()
        for (name, value) in headerFields { fields.add(name: name, value: value) }
        return fields
    }
}

extension MossError: HTTPResponseError {
    public var status: HTTPStatus { HTTPStatus(code: httpStatus) }
    public var headers: HTTPHeaders {
        var fields = HTTPHeaders()
        if let seconds = retryAfterSeconds { fields.add(name: "Retry-After", value: String(seconds)) }
        return fields
    }
}
