import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import GRDBSQLite
import TestSupport

/// A server with `count` feeds of `items` entries each and an OPML listing them.
public func feedFarm(count: Int, items: Int, delay: Double) throws -> TestHTTPServer {
    try TestHTTPServer { request in
        if request.path == "/list.opml" {
            let outlines = (0..<count).map { "<outline text=\"Feed \($0)\" xmlUrl=\"/feed/\($0).xml\"/>" }.joined()
            return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body>\(outlines)</body></opml>")
        }
        guard let number = Int(request.path.dropFirst("/feed/".count).dropLast(".xml".count)) else { return .init(status: 404) }
        let entries = (0..<items).map { ("f\(number)-\($0)", "Feed \(number) entry \($0)", "https://site.example/\(number)/\($0)", "Tue, 21 Apr 2009 23:32:00 +0000") }
        return .init(headers: [("Content-Type", "application/rss+xml")], body: Array(rss("Feed \(number)", items: entries).utf8), delay: delay)
    }
}
