import Hummingbird
import Logging
import NIOCore

/// A request's context with its connection: what the event stream closes when a write to a
/// reader that stopped reading does not complete in time (``EventStream/sendTimeout``).
struct ServeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    /// The peer's address without its port (a load balancer's, behind one): what requests
    /// without a valid token are limited by.
    var remoteAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
