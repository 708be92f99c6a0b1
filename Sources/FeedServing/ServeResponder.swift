import Foundation
import HTTPTypes
import Hummingbird

/// Every request `rss-serve` answers: `/events`, `/healthz`, and the publication's files.
struct ServeResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let files: PublicationFiles
    let events: EventStream
    let hub: EventHub

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        switch request.uri.path {
        case "/events":
            guard request.method == .get else { return PublicationFiles.plain(.methodNotAllowed, "only GET\n", extra: [.allow: "GET"]) }
            return events.respond(to: request)
        case "/healthz":
            // Healthy once a root is known: what a load balancer needs before sending readers.
            guard let root = hub.root else { return PublicationFiles.plain(.serviceUnavailable, "no publication yet\n") }
            let body = FeedEvent.json(["generation": root.generation, "connections": hub.connections, "status": "ok"]) + "\n"
            var response = PublicationFiles.plain(.ok, body)
            response.headers[.contentType] = "application/json"
            return response
        default:
            return files.respond(to: request)
        }
    }
}
