import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `GET` and `POST /v1/state` (client contract, "Reading state"): a user's read and starred
/// marks, shared between their devices. `Authorization: Bearer TOKEN` names the user
/// (``UserTokens``); a user reads and changes their own marks only: the user is never taken
/// from the request's body or query. Limits: ``bodyLimit`` bytes and ``markLimit`` marks per
/// POST (413), a rate per user and, for requests without a valid token, per address (429 with
/// `Retry-After`), so tokens are not guessed at speed.
struct StateEndpoint: Sendable {
    let users: UserTokens
    let store: ReadingStateStore?
    let logger: Logger
    let clock: @Sendable () -> Int64
    let perUser: RateLimiter
    let refused: RateLimiter

    static let bodyLimit = 1 << 20
    static let markLimit = 5_000
    static let pageLimit = 1_000

    init(users: UserTokens, store: ReadingStateStore?, logger: Logger, settings: ReadingStateSettings) {
        self.users = users
        self.store = store
        self.logger = logger
        clock = settings.clock
        perUser = RateLimiter(burst: settings.burst, interval: settings.interval)
        refused = RateLimiter(burst: settings.burst, interval: settings.interval * 6)
    }

    func respond(to request: Request, address: String) async -> Response {
        guard request.method == .get || request.method == .post else {
            return Self.error(.methodNotAllowed, "only GET and POST", extra: [.allow: "GET, POST"])
        }
        guard let user = users.user(authorization: request.headers[.authorization]) else {
            if let wait = refused.take(address) { return Self.tooMany(wait) }
            return Self.error(.unauthorized, "a valid Authorization: Bearer TOKEN is needed", extra: [.wwwAuthenticate: "Bearer realm=\"feedmill\""])
        }
        if let wait = perUser.take(user) { return Self.tooMany(wait) }
        guard let store else { return Self.error(.serviceUnavailable, "reading state cannot be stored now; try again later", extra: [.retryAfter: "60"]) }
        do {
            if request.method == .get { return try read(request, user: user, store: store) }
            return try await write(request, user: user, store: store)
        } catch {
            logger.error("reading state: \(user): \(error)")
            return Self.error(.serviceUnavailable, "reading state cannot be stored now; try again later", extra: [.retryAfter: "60"])
        }
    }

    private func read(_ request: Request, user: String, store: ReadingStateStore) throws -> Response {
        var cursor: Int64 = 0
        if let given = request.uri.queryParameters.get("since") {
            guard let value = Int64(given), value >= 0 else { return Self.error(.badRequest, "since: a cursor an earlier answer gave") }
            cursor = value
        }
        let page = try store.page(user: user, after: cursor, limit: Self.pageLimit)
        return Self.json(.ok, ReadMarkJSON.answer(page))
    }

    private func write(_ request: Request, user: String, store: ReadingStateStore) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.bodyLimit {
            return Self.error(.contentTooLarge, "larger than \(Self.bodyLimit) bytes")
        }
        let body: [UInt8]
        do {
            var buffer = try await request.body.collect(upTo: Self.bodyLimit)
            body = buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch {
            return Self.error(.contentTooLarge, "larger than \(Self.bodyLimit) bytes")
        }
        let marks: [ReadMark]
        do {
            marks = try ReadMarkJSON.marks(from: body, limit: Self.markLimit, now: clock())
        } catch {
            let status: HTTPResponse.Status = error.description.hasPrefix("more than") ? .contentTooLarge : .badRequest
            return Self.error(status, error.description)
        }
        let changed: Int
        do {
            changed = try store.merge(marks, user: user)
        } catch let refused as ReadingStateStore.TooManyMarks {
            return Self.error(.contentTooLarge, refused.description)
        }
        return Self.json(.ok, Array("{\"accepted\":\(marks.count),\"changed\":\(changed)}\n".utf8))
    }

    static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8], extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `{"error": "…"}`: what an app shows or logs.
    static func error(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
        return json(status, Array(body) + [0x0A], extra: extra)
    }

    static func tooMany(_ wait: Duration) -> Response {
        let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
        return error(.tooManyRequests, "too many requests; try again in \(seconds) s", extra: [.retryAfter: String(seconds)])
    }
}
