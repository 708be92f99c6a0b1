import Foundation

/// ``PublicationLive``'s loop: connect, read events, apply or fall back, reconnect. Used by one
/// task alone.
struct LiveLoop {
    let live: PublicationLive
    let tell: @Sendable (LiveUpdate) -> Void
    /// The generation of the last event handled (or of the last complete file sync): what
    /// `Last-Event-ID` resumes from.
    var lastID: Int?
    var failuresInARow = 0
    var lastFileSync: ContinuousClock.Instant?

    init(live: PublicationLive, tell: @escaping @Sendable (LiveUpdate) -> Void) {
        self.live = live
        self.tell = tell
    }

    mutating func run() async {
        await fileSync("start")
        while !Task.isCancelled {
            var headers = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
            if let lastID { headers["Last-Event-ID"] = String(lastID) }
            var parser = ServerSentEventParser()
            var received = false
            var reason = "the server closed the stream"
            do {
                reading: for try await chunk in live.streams.open(live.eventsURL, headers: headers) {
                    if !received {
                        received = true
                        failuresInARow = 0
                        tell(.connected(lastEventID: lastID))
                    }
                    for event in try parser.feed(chunk) {
                        guard await handle(event) else {
                            reason = "the server said this reader fell behind"
                            break reading
                        }
                    }
                }
            } catch let problem as ServerSentEventParser.Problem {
                reason = "an event larger than \(ServerSentEventParser.maximumEventBytes) bytes: \(problem)"
            } catch let error as ClientError {
                reason = error.description
            } catch {
                reason = "\(error)"
            }
            if Task.isCancelled { return }
            if !received {
                failuresInARow += 1
                // No server: the files, now and then, as a sync would.
                if lastFileSync.map({ ContinuousClock.now - $0 >= live.fallbackInterval }) ?? true {
                    await fileSync("the event stream cannot be read: \(reason)")
                }
            }
            let wait = backoff(serverRetry: parser.retry)
            tell(.disconnected(reason: reason, retryIn: wait))
            try? await Task.sleep(for: wait)
        }
    }

    /// The wait before the next connection: right after a stream that worked, the server's
    /// `retry:` (or the first backoff); after failures, doubling up to the maximum; jittered.
    func backoff(serverRetry: Int?) -> Duration {
        let first = serverRetry.map { Duration.milliseconds(min($0, 600_000)) } ?? live.initialBackoff
        var wait = max(first, live.initialBackoff)
        for _ in 0..<min(max(failuresInARow - 1, 0), 20) { wait = min(wait * 2, live.maximumBackoff) }
        wait = min(wait, max(live.maximumBackoff, first))
        let factor = 0.5 + 0.5 * min(max(live.random(), 0), 1)
        return wait * factor
    }

    /// One event; false when the connection is to be dropped (a `resync` without feed).
    mutating func handle(_ sse: ServerSentEvent) async -> Bool {
        let event: LiveEvent
        do throws(LiveEvent.Problem) {
            guard let decoded = try LiveEvent.decode(sse) else { return true }
            event = decoded
        } catch {
            await fileSync("an event that cannot be read (\(error.description))")
            return true
        }
        if let lastID, event.kind == .patch, event.generation <= lastID { return true }
        // Whether the folder now holds what the event announced: only then is it resumed past.
        var handled = true
        switch event.kind {
        case .entry:
            guard let feedID = event.feedID, !holds(event) else { break }
            handled = await fileSync("feed \(feedID) is published at version \(event.toVersion ?? 0), not the one held")
        case .patch:
            guard let feedID = event.feedID else { break }
            do throws(ClientError) {
                let file = try SyncSession(live.sync).applyLivePatch(event)
                tell(.patched(feedID: feedID, file: file, version: event.toVersion ?? 0, generation: event.generation))
            } catch {
                handled = await fileSync("the patch for feed \(feedID) was not applied: \(error.description)")
            }
        case .resync:
            guard event.feedID != nil else {
                await fileSync("resync: \(event.reason ?? "the server asked for it")")
                return false
            }
            handled = await fileSync("resync of feed \(event.feedID ?? 0): \(event.reason ?? "the server asked for it")")
        }
        if handled { lastID = max(lastID ?? 0, event.generation) }
        return true
    }

    /// Whether the folder holds the entry the event names (version and content digest).
    func holds(_ event: LiveEvent) -> Bool {
        guard let feedID = event.feedID, let state = try? ClientState.load(from: live.sync.folder),
            let local = state.files[SafeName.feed(feedID)]
        else { return false }
        return local.version == event.toVersion && local.contentDigest == event.contentDigest
    }

    /// A file sync; whether it brought the folder to a generation completely.
    @discardableResult
    mutating func fileSync(_ reason: String) async -> Bool {
        lastFileSync = .now
        do throws(ClientError) {
            let report = try await live.sync.run()
            tell(.synced(report, reason: reason))
            guard report.problems.isEmpty, !report.wasInterrupted, report.outcome != .staleGeneration else { return false }
            lastID = max(lastID ?? 0, report.generation)
            return true
        } catch {
            tell(.syncFailed(error, reason: reason))
            return false
        }
    }
}
