import FeedModel
import FeedStorage

/// Where an ingest (``FeedIngest``) puts a feed's entries as they are read: kept whole by
/// ``commit()``, or thrown away by ``cancel()``.
protocol EntryDestination: AnyObject {
    associatedtype Kept
    func add(_ entry: Entry) throws(StorageError)
    /// Keeps every entry added; after a failure nothing is kept.
    func commit() throws(StorageError) -> Kept
    func cancel()
}

/// `rss-inspect`'s destination: the entries in a list, to be printed.
final class EntryList: EntryDestination {
    private var entries: [Entry] = []

    func add(_ entry: Entry) throws(StorageError) { entries.append(entry) }

    func commit() throws(StorageError) -> [Entry] { entries }

    func cancel() { entries = [] }
}
