import FeedmillClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /events[?feeds=ID,ID]`: Server-Sent Events (client contract, "Live updates"). On
/// connect, each followed feed's current entry (`entry`); with `Last-Event-ID: G`, instead, what
/// changed after generation G: the publications since replayed when the server still holds
/// them, else a `resync` per feed changed since. Then one `patch` or `resync` per followed feed
/// a publication changes, and a comment every `heartbeat`.
struct EventStream: Sendable {
    let watcher: PublicationWatcher
    let hub: EventHub
    /// A write not taken by the reader's connection within this long (a reader that stopped
    /// reading, its buffers and the kernel's full) closes the connection, as a web server's
    /// send timeout does: it never holds a connection, or a graceful stop, for ever. Checked
    /// by the server's sweep; here for the last write, the end of the stream.
    var sendTimeout: Duration = .seconds(60)
    /// The most feeds one connection may name.
    static let followLimit = 10_000

    func respond(to request: Request, channel: any Channel) -> Response {
        var feeds: Set<Int64>?
        if let list = request.uri.queryParameters.get("feeds") {
            let parts = list.split(separator: ",", omittingEmptySubsequences: true)
            let ids = parts.compactMap { Int64($0) }
            guard ids.count == parts.count, !ids.isEmpty, ids.allSatisfy({ $0 > 0 }), ids.count <= Self.followLimit else {
                return PublicationFiles.plain(.badRequest, "feeds: a comma-separated list of at most \(Self.followLimit) feedids\n")
            }
            feeds = Set(ids)
        }
        let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let connection = hub.connect(feeds: feeds) { channel.close(promise: nil) }
        let following = feeds
        let hub = self.hub
        let watcher = self.watcher
        let timeout = TimeAmount.nanoseconds(Int64(sendTimeout.components.seconds) * 1_000_000_000 + sendTimeout.components.attoseconds / 1_000_000_000)
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        // The body's task lives as long as the connection, and keeps the deepest stack it
        // ever had: what it does is kept in small non-inlined steps (``opening``, ``send``),
        // so an idle reader costs little memory. A graceful stop ends every stream (the
        // server's Background closes the hub), which ends this loop.
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { hub.disconnect(connection.id) }
            try await Self.send(await Self.opening(watcher, connection, feeds: following, after: lastEventID), to: &writer, watch: connection.watch)
            for await text in connection.stream where !text.isEmpty {
                try await Self.send(text, to: &writer, watch: connection.watch)
            }
            if connection.overflow.happened.load(ordering: .acquiring) {
                try await Self.send(Self.overflowed(hub.root), to: &writer, watch: connection.watch)
            }
            let watchdog = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
            defer { watchdog.cancel() }
            try await writer.finish(nil)
        })
    }

    /// One write, watched: the server's sweep (``EventHub/closeStalled(after:now:)``, each
    /// second) closes the connection when the reader has not taken it within the send timeout.
    @inline(never)
    static func send(_ text: String, to writer: inout any ResponseBodyWriter, watch: EventHub.WriteWatch) async throws {
        watch.since.store(EventHub.WriteWatch.now(), ordering: .relaxed)
        defer { watch.since.store(0, ordering: .relaxed) }
        try await writer.write(ByteBuffer(string: text))
    }

    /// The first text of a connection: made outside the hub's lock (it reads pointers, which
    /// for a bucket are requests: off the cooperative pool) from the root it had then.
    @inline(never)
    static func opening(_ watcher: PublicationWatcher, _ connection: EventHub.Connection, feeds: Set<Int64>?, after: Int?) async -> String {
        guard let root = connection.root else { return "retry: 2000\n\n" }
        let history = connection.history
        return await PublicationWatcher.offPool {
            "retry: 2000\n\n" + Self.initial(watcher, root: root, history: history, feeds: feeds, after: after).joined()
        }
    }

    /// What a connection gets first.
    private static func initial(_ watcher: PublicationWatcher, root: RootManifest, history: [EventHub.Publication], feeds: Set<Int64>?, after: Int?) -> [String] {
        let followed = feeds.map { $0.sorted() } ?? watcher.allPointerFeeds(root).sorted()
        if let after, after == root.generation { return [] }
        if let after, after < root.generation {
            if let start = history.firstIndex(where: { $0.from == after }) {
                return history[start...].flatMap { $0.events.filter { feeds?.contains($0.feedID) ?? true }.map(\.wire) }
            }
            return followed.compactMap { feedID in
                guard let pointer = watcher.pointer(feedID, root: root), let entry = root.firstUsable(of: pointer), entry.generation > after
                else { return nil }
                return PublicationWatcher.resync(feedID, entry: entry, generation: root.generation, reason: "the server no longer holds the publications since \(after)").wire
            }
        }
        return followed.compactMap { feedID in
            guard let pointer = watcher.pointer(feedID, root: root), let entry = root.firstUsable(of: pointer) else { return nil }
            var fields = PublicationWatcher.entryFields(feedID, entry)
            fields["generation"] = entry.generation
            return FeedEvent(kind: .entry, generation: root.generation, feedID: feedID, data: FeedEvent.json(fields)).wire
        }
    }

    /// The last word to a reader that could not keep up: fetch the files again.
    static func overflowed(_ root: RootManifest?) -> String {
        let generation = root?.generation ?? 0
        let data = FeedEvent.json(["generation": generation, "reason": "this connection fell too far behind; sync the files, then reconnect"])
        return "event: resync\nid: \(generation)\ndata: \(data)\n\n"
    }
}
