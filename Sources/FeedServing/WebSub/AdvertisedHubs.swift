import Foundation
import GRDB

/// The feeds whose last read advertised a WebSub hub and topic, as `rss-update` recorded them
/// in the catalog (`fetch_state.websub_hub`, `websub_topic`). Read only: `rss-serve` opens the
/// catalog read-only here, so it never takes a write lock `rss-update` would wait on.
enum AdvertisedHubs {
    struct Feed: Sendable, Equatable {
        var feedID: Int64
        var hub: String
        var topic: String
    }

    /// Every advertising feed; none when there is no catalog yet, or one from before issue 53.
    static func read(catalogPath: String) throws -> [Feed] {
        guard FileManager.default.fileExists(atPath: catalogPath) else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: catalogPath, configuration: configuration)
        return try queue.read { db in
            let columns = Set(try db.columns(in: "fetch_state").map { $0.name.lowercased() })
            guard columns.contains("websub_hub"), columns.contains("websub_topic") else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT fetch_state.feedid, websub_hub, websub_topic FROM fetch_state JOIN feeds USING (feedid)
                    WHERE typeof(websub_hub) = 'text' AND typeof(websub_topic) = 'text' ORDER BY feedid
                    """
            ).map { Feed(feedID: $0[0], hub: $0[1], topic: $0[2]) }
        }
    }
}
