import FeedFetching
import FeedNormalization
import FeedParsing
import FeedStorage
import Foundation

/// What `rss-create` did: the import, then the first fetch of every feed without a title.
public struct CreateReport: Sendable {
    public var importResult: ImportResult
    public var update: RunReport
}

/// The create step: imports the feed list into the catalog, then fetches every feed that has
/// no `about` row yet (and is not waiting out a backoff), so it gets its database and title.
/// A second run changes nothing.
public struct CreateRun: Sendable {
    public let configuration: PipelineConfiguration
    public let catalog: Catalog

    public init(configuration: PipelineConfiguration, catalog: Catalog) {
        self.configuration = configuration
        self.catalog = catalog
    }

    /// - Parameter feedList: an OPML file path or http(s) URL. Relative `xmlUrl`s are
    ///   resolved against where the OPML came from.
    public func run(
        feedList: String, prune: Bool, progress: (@Sendable (FeedReport, Int, Int) -> Void)? = nil
    ) throws(PipelineError) -> CreateReport {
        let outlines = try loadOutlines(feedList)
        let imported: ImportResult
        let untitled: [Int64]
        do {
            imported = try catalog.importOutlines(outlines, prune: prune)
            // Feeds that failed their first fetch wait for their backoff like any other.
            let now = configuration.clock()
            untitled = try catalog.feeds().filter { feed in
                feed.title == nil && !feed.state.gone && (feed.state.nextAttempt ?? now) <= now
            }.map(\.feedID)
        } catch {
            throw .storage(error)
        }
        let update = try UpdateRun(configuration: configuration, catalog: catalog).run(.feeds(untitled), progress: progress)
        return CreateReport(importResult: imported, update: update)
    }

    func loadOutlines(_ source: String) throws(PipelineError) -> [CatalogOutline] {
        let bytes: [UInt8]
        let base: String
        let lowered = source.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            do {
                let response = try HTTPFetcher(configuration: configuration.fetch).fetch(source).response
                (bytes, base) = (response.body, response.finalURL)
            } catch {
                throw .feedList(source: source, reason: "\(error.message) [\(error.kind.rawValue)]")
            }
        } else {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw .feedList(source: source, reason: FileManager.default.fileExists(atPath: source) ? "not readable" : "no such file")
            }
            bytes = [UInt8](data)
            base = URL(fileURLWithPath: source).standardizedFileURL.absoluteString
        }
        let outlines: [OPMLOutline]
        do {
            outlines = try OPMLParser.parse(bytes)
        } catch {
            throw .feedList(source: source, reason: error.description)
        }
        return outlines.compactMap { outline in
            guard let url = URLResolver.resolve(outline.xmlURL, against: base) else { return nil }
            return CatalogOutline(
                url: url, title: outline.title, siteLink: outline.htmlURL.flatMap { URLResolver.resolve($0, against: base) },
                category: outline.categoryPath.isEmpty ? nil : outline.categoryPath.joined(separator: "/"))
        }
    }
}
