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

/// Writes into a database as a person with `sqlite3` would, bypassing Feedmill.
public func tamper(_ path: String, _ sql: String) throws {
    let queue = try GRDB.DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
    try queue.close()
}

/// The feedids a publication's record lists (each with a pointer).
public func publishedFeeds(_ out: String) throws -> [Int64] {
    try PublicationReader.record(out).feeds.map(\.feedID)
}

/// SQL true for an `items` row with a value of a type its column does not hold (for the
/// reader-field lists: anything but NULL or text holding a JSON array).
public let anyWronglyTypedItemValue = """
    typeof(id) <> 'text' OR typeof(title) <> 'text' OR typeof(summary) <> 'text' OR typeof(pubdate_unix_time) <> 'integer'
    OR typeof(permalink) NOT IN ('text', 'null') OR typeof(updated_unix_time) NOT IN ('integer', 'null')
    OR typeof(author) NOT IN ('text', 'null') OR typeof(first_seen_unix_time) NOT IN ('integer', 'null')
    OR typeof(pubdate_is_first_seen) <> 'integer' OR typeof(id_source) NOT IN ('text', 'null')
    OR typeof(content_hash) NOT IN ('text', 'null') OR typeof(change_seq) <> 'integer'
    OR typeof(image_url) NOT IN ('text', 'null')
    """ + ["enclosures_json", "categories_json", "authors_json"].map { column in
        "\nOR typeof(\(column)) NOT IN ('text', 'null') OR (typeof(\(column)) = 'text' AND "
            + "(NOT json_valid(\(column)) OR (json_valid(\(column)) AND json_type(CASE WHEN json_valid(\(column)) THEN \(column) ELSE '[]' END) <> 'array')))"
    }.joined()

/// Values written by hand into feed databases and the catalog never stop a command: readers
/// read them as what they are and say so, the update repairs them, and clients never get one.
