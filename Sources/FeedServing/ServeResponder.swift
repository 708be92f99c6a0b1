import Foundation
import HTTPTypes
import Hummingbird

/// Every request `rss-serve` answers: `/events`, `/healthz`, `/metrics`, `/v1/state`, WebSub
/// callbacks, and the publication's files.
struct ServeResponder: HTTPResponder {
    typealias Context = ServeRequestContext
    /// The publication's files, when it is a directory; a bucket's are read from the bucket.
    let files: PublicationFiles?
    let location: String
    let events: EventStream
    let hub: EventHub
    let metrics: ServeMetrics
    let websub: WebSubCallback?
    let state: StateEndpoint?

    /// Kept small on purpose: an async function's frame is allocated in its task, and a task
    /// keeps the largest stack it ever had for as long as it lives: for a reader of `/events`,
    /// the whole connection. So the synchronous answers (files, events, health, metrics) are
    /// made in ``answer(_:context:)``, on the thread's stack, and only the two that wait for a
    /// body are async.
    func respond(to request: Request, context: ServeRequestContext) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix(WebSubCallback.prefix) { return await callback(request, path: path) }
        if path == "/v1/state" { return await readingState(request, address: context.remoteAddress) }
        return answer(request, context: context)
    }

    @inline(never)
    func callback(_ request: Request, path: String) async -> Response {
        let callback = String(path.dropFirst(WebSubCallback.prefix.count))
        guard let websub, callback.utf8.count == 64, callback.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return PublicationFiles.plain(.notFound, "no such subscription\n")
        }
        return await websub.respond(to: request, callback: callback)
    }

    @inline(never)
    func readingState(_ request: Request, address: String) async -> Response {
        guard let state else { return PublicationFiles.plain(.notFound, "reading state is not kept by this server (rss-serve --users)\n") }
        return await state.respond(to: request, address: address)
    }

    @inline(never)
    func answer(_ request: Request, context: ServeRequestContext) -> Response {
        switch request.uri.path {
        case "/metrics":
            guard request.method == .get || request.method == .head else { return PublicationFiles.plain(.methodNotAllowed, "only GET\n", extra: [.allow: "GET, HEAD"]) }
            var response = PublicationFiles.plain(.ok, metrics.text(hub: hub))
            response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        case "/events":
            guard request.method == .get else { return PublicationFiles.plain(.methodNotAllowed, "only GET\n", extra: [.allow: "GET"]) }
            return events.respond(to: request, channel: context.channel)
        case "/healthz":
            // Healthy once a root is known: what a load balancer needs before sending readers.
            guard let root = hub.root else { return PublicationFiles.plain(.serviceUnavailable, "no publication yet\n") }
            let body = FeedEvent.json(["generation": root.generation, "connections": hub.connections, "status": "ok"]) + "\n"
            var response = PublicationFiles.plain(.ok, body)
            response.headers[.contentType] = "application/json"
            return response
        default:
            guard let files else {
                return PublicationFiles.plain(.notFound, "not found: the files of \(location) are read from the bucket (its public URL or CDN); rss-serve streams its events\n")
            }
            return files.respond(to: request)
        }
    }
}
