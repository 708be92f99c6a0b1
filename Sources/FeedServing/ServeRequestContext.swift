import Hummingbird
import Logging
import NIOCore

/// A request's context with its connection: what the event stream closes when a write to a
/// reader that stopped reading does not complete in time (``EventStream/sendTimeout``).
struct ServeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
