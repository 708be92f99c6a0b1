import FeedPublishingObjectStorage
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// `rss-serve`'s server: a publication directory served to clients, its new publications
/// pushed to the readers connected to `/events`. Hummingbird (SwiftNIO) for HTTP, and
/// swift-service-lifecycle to stop gracefully on SIGTERM or SIGINT: the event streams are ended,
/// the listener closed, then the process exits.
public struct FeedServer: Sendable {
    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        /// The publication `rss-publish --out` writes.
        public var publication: Publication
        /// How often the root is looked at: a publication is noticed within this.
        public var pollInterval: Duration = .milliseconds(250)
        /// A comment on every event stream this often, for proxies that close idle connections.
        public var heartbeat: Duration = .seconds(15)
        /// Events one connection may have waiting before it is closed with a `resync`.
        public var bufferLimit = 256
        /// A write to a reader not taken within this long closes its connection.
        public var sendTimeout: Duration = .seconds(60)
        /// Set with `--public-url` and `--data-dir`: WebSub subscriptions and pushes.
        public var websub: WebSubSettings?
        /// Set with `--users`: reading state at `/v1/state`.
        public var readingState: ReadingStateSettings?

        public init(host: String, port: Int, directory: String) {
            self.init(host: host, port: port, publication: .directory(directory))
        }

        public init(host: String, port: Int, publication: Publication) {
            self.host = host
            self.port = port
            self.publication = publication
        }
    }

    /// A directory is served and watched; a bucket (several instances, on several hosts, may
    /// watch one) is watched by a conditional GET of its root, and its files are read by
    /// clients from the bucket itself.
    public enum Publication: Sendable {
        case directory(String)
        case bucket(ObjectStorageTarget)
    }

    let settings: Settings
    let logger: Logger

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT. `started` gets the port bound (the one asked, or the
    /// kernel's pick for port 0).
    public func run(started: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let files: PublicationFiles?
        let source: any PublicationSource
        switch settings.publication {
        case .directory(let directory):
            let served = PublicationFiles(directory: directory)
            files = served
            source = DirectorySource(files: served)
        case .bucket(let target):
            files = nil
            source = BucketSource(target: target)
        }
        let hub = EventHub(bufferLimit: settings.bufferLimit)
        let metrics = ServeMetrics()
        let watcher = PublicationWatcher(source: source, hub: hub, logger: logger, metrics: metrics)
        var callback: WebSubCallback?
        var subscriber: WebSubSubscriber?
        var pushes: PushApplier?
        if var websub = settings.websub {
            if case .bucket(let target) = settings.publication { websub.target = target }
            let store = try SubscriptionStore(dataDirectory: websub.pipeline.dataDirectory)
            let applier = PushApplier(settings: websub, metrics: metrics, logger: logger)
            pushes = applier
            let clock = websub.pipeline.clock
            callback = WebSubCallback(settings: websub, store: store, pushes: applier, metrics: metrics, logger: logger, clock: clock)
            subscriber = WebSubSubscriber(settings: websub, store: store, logger: logger, metrics: metrics)
        }
        var state: StateEndpoint?
        if let reading = settings.readingState {
            let logger = self.logger
            let users: UserTokens
            do {
                users = try UserTokens(path: reading.usersFile) { why in logger.warning("--users: the new file is not used, the users read before are: \(why)") }
            } catch {
                throw ServeSettingError(description: "--users: \(error.description)")
            }
            // A store that cannot be opened (a damaged file) leaves the rest served: /v1/state says 503.
            var store: ReadingStateStore?
            do { store = try ReadingStateStore(dataDirectory: reading.dataDirectory) } catch {
                logger.error("reading state cannot be kept (\(error)); /v1/state answers 503 until rss-serve is restarted with a usable \(ReadingStateStore.fileName)")
            }
            state = StateEndpoint(users: users, store: store, logger: logger, settings: reading)
        }
        let responder = ServeResponder(
            files: files, location: source.location, events: EventStream(watcher: watcher, hub: hub, sendTimeout: settings.sendTimeout), hub: hub, metrics: metrics, websub: callback, state: state)
        let listening = Background.Listening()
        let background = Background(
            watcher: watcher, hub: hub, settings: settings, subscriber: subscriber, pushes: pushes, listening: listening)
        let app = Application(
            responder: responder,
            server: .http1(configuration: .init(additionalChannelHandlers: [SmallReceiveBuffers()])),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                listening.set()
                started(channel.localAddress?.port ?? settings.port)
            },
            logger: logger)
        // On SIGTERM or SIGINT, services stop in reverse order: the background first, which
        // ends every event stream (and refuses new ones), then the server, which then has no
        // open stream to wait for. (A graceful-shutdown handler per stream would do the same
        // at a kilobyte of task memory per idle reader.)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: app), .init(service: background)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The watcher and the heartbeat, run beside the server; on graceful shutdown every event
    /// stream is ended, so the server's wait for open requests ends too, and pushes already
    /// taken are stored.
    struct Background: Service, CustomStringConvertible {
        let watcher: PublicationWatcher
        let hub: EventHub
        let settings: Settings
        let subscriber: WebSubSubscriber?
        let pushes: PushApplier?
        /// Set once the server listens: hubs verify a subscription by calling back at once,
        /// so none is asked for before.
        let listening: Listening

        final class Listening: Sendable {
            let flag = Atomic<Bool>(false)
            func set() { flag.store(true, ordering: .releasing) }
            var isSet: Bool { flag.load(ordering: .acquiring) }
        }

        var description: String { "Background" }

        func run() async throws {
            try await cancelWhenGracefulShutdown {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await watcher.run(interval: settings.pollInterval) }
                    if let subscriber, let interval = settings.websub?.checkInterval {
                        group.addTask {
                            while !listening.isSet, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
                            while !Task.isCancelled {
                                // Hub requests block for up to the fetch timeout: off the cooperative pool.
                                await withCheckedContinuation { continuation in
                                    DispatchQueue.global().async {
                                        subscriber.reconcile(now: subscriber.settings.pipeline.clock())
                                        continuation.resume()
                                    }
                                }
                                try? await Task.sleep(for: interval)
                            }
                        }
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: settings.heartbeat)
                            if !Task.isCancelled { hub.heartbeat() }
                        }
                    }
                    // Writes that readers have not taken within the send timeout: their connections closed.
                    group.addTask {
                        let limit = settings.sendTimeout.components
                        let nanoseconds = limit.seconds * 1_000_000_000 + limit.attoseconds / 1_000_000_000
                        let every = min(Duration.seconds(1), settings.sendTimeout / 2)
                        while !Task.isCancelled {
                            try? await Task.sleep(for: every)
                            hub.closeStalled(after: nanoseconds)
                        }
                    }
                    await group.waitForAll()
                }
            }
            hub.closeAll()
            // A push answered 202 is stored and published before the process ends, unless
            // it waits on a lock longer than a stop may take.
            _ = await pushes?.finish(within: .seconds(20))
        }
    }
}
