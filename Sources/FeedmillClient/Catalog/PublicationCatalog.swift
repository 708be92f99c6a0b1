import Foundation

/// Browsing and searching a publication's catalog a page or a chunk at a time, without
/// downloading `all_feeds.sqlite` (226 MB at a million feeds): for an app that lets its user
/// choose feeds (issue 51). The root names an index (`catalog_index`); the index names pages of
/// 1,000 feed ids and chunks of a title index; every file is checked against the SHA-256 and
/// size that names it before it is read (docs/client-contract.md, browsing the catalog).
public struct PublicationCatalog: Sendable {
    public let baseURL: URL
    public let transport: any ClientTransport

    public init(baseURL: URL, transport: any ClientTransport = URLSessionTransport()) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")
        self.transport = transport
    }

    /// The index the root names now (one request for the root, one for the index).
    public func index() async throws(ClientError) -> CatalogIndex {
        let rootURL = baseURL.appendingPathComponent("manifest.json")
        let root: RootWithIndex
        do {
            root = try JSONDecoder().decode(RootWithIndex.self, from: try await body(rootURL))
        } catch let error as ClientError {
            throw error
        } catch {
            throw .manifestUnreadable(url: rootURL, reason: ClientError.describe(decoding: error))
        }
        guard let named = root.catalogIndex else {
            throw .manifestUnreadable(url: rootURL, reason: "it names no catalog_index (a publisher from before issue 51, or shards)")
        }
        let index: CatalogIndex = try await document(named.file, prefix: "catalog_index.", sha256: named.sha256, size: named.size)
        for page in index.pages { try PublicationNames.checkCatalogPart(page.file, prefix: "catalog_page_\(page.page).", sha256: page.sha256) }
        for chunk in index.titles { try PublicationNames.checkCatalogPart(chunk.file, prefix: "catalog_titles.", sha256: chunk.sha256) }
        return index
    }

    /// The feeds of page `number` (ids `number × pageSize` …), empty when the index has none.
    public func page(_ number: Int, of index: CatalogIndex) async throws(ClientError) -> [CatalogListing] {
        guard let page = index.pages.first(where: { $0.page == number }) else { return [] }
        let document: PageDocument = try await document(page.file, prefix: "catalog_page_\(number).", sha256: page.sha256, size: page.size)
        guard document.feeds.allSatisfy({ $0.feedID / Int64(index.pageSize) == Int64(number) }) else {
            throw .unusableEntry(file: page.file, reason: "it lists a feed of another page")
        }
        return document.feeds
    }

    /// One feed's row: one page read.
    public func feed(_ feedID: Int64, in index: CatalogIndex) async throws(ClientError) -> CatalogListing? {
        guard feedID >= 0, index.pageSize > 0 else { return nil }
        return try await page(Int(feedID / Int64(index.pageSize)), of: index).first { $0.feedID == feedID }
    }

    /// Titles starting with `text` (folded as the publisher folds them: ``fold(_:)``), in the
    /// index's order, at most `limit`: the chunks under that prefix are read in order until
    /// `limit` are found, so a query costs a chunk or a few (each at most
    /// 2,000 titles), not the catalog.
    public func search(_ text: String, in index: CatalogIndex, limit: Int = 50) async throws(ClientError) -> [CatalogMatch] {
        let query = Self.fold(text)
        guard limit > 0 else { return [] }
        var matches: [CatalogMatch] = []
        for chunk in index.titles where chunk.prefix.hasPrefix(query) || query.hasPrefix(chunk.prefix) {
            let document: TitlesDocument = try await document(chunk.file, prefix: "catalog_titles.", sha256: chunk.sha256, size: chunk.size)
            matches += document.titles.filter { $0.key.hasPrefix(query) }
            if matches.count >= limit { break }
        }
        return Array(matches.prefix(limit))
    }

    /// The publisher's folding of a title, which a search compares: case, diacritics and width
    /// folded, runs of white space as one space, none at either end.
    public static func fold(_ title: String) -> String {
        let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private func body(_ url: URL) async throws(ClientError) -> Data {
        let response: TransportResponse
        do {
            response = try await transport.fetch(TransportRequest(url: url))
        } catch let error as ClientError {
            throw error
        } catch {
            throw .transport(url: url, reason: error.localizedDescription)
        }
        guard response.status == 200 else { throw .httpStatus(url: url, status: response.status) }
        return response.body
    }

    /// A file of the index, checked by name, size and SHA-256 before it is decoded.
    private func document<Document: Decodable>(_ name: String, prefix: String, sha256: String, size: Int) async throws(ClientError) -> Document {
        try PublicationNames.checkCatalogPart(name, prefix: prefix, sha256: sha256)
        let url = baseURL.appendingPathComponent(name)
        let data = try await body(url)
        guard data.count == size else { throw .sizeMismatch(file: name, expected: size, received: data.count) }
        let received = SHA256Hasher.hexDigest(data)
        guard received == sha256 else { throw .sha256Mismatch(file: name, expected: sha256, received: received) }
        do {
            return try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw .manifestUnreadable(url: url, reason: ClientError.describe(decoding: error))
        }
    }

    private struct RootWithIndex: Decodable {
        var catalogIndex: Named?
        enum CodingKeys: String, CodingKey { case catalogIndex = "catalog_index" }
        struct Named: Decodable {
            var file: String
            var sha256: String
            var size: Int
        }
    }

    private struct PageDocument: Decodable {
        var feeds: [CatalogListing]
    }

    private struct TitlesDocument: Decodable {
        var titles: [CatalogMatch]
    }
}

/// `catalog_index.<sha256>.json`.
public struct CatalogIndex: Decodable, Sendable, Equatable {
    public var pageSize: Int
    public var feedCount: Int
    public var pages: [Page]
    public var titles: [Chunk]

    enum CodingKeys: String, CodingKey {
        case pages, titles
        case pageSize = "page_size"
        case feedCount = "feed_count"
    }

    public struct Page: Decodable, Sendable, Equatable {
        public var page: Int
        public var file: String
        public var sha256: String
        public var size: Int
        public var count: Int
    }

    public struct Chunk: Decodable, Sendable, Equatable {
        public var prefix: String
        public var file: String
        public var sha256: String
        public var size: Int
        public var count: Int
    }
}

/// One feed of a catalog page: its `feeds`, `about` and `last_update` row.
public struct CatalogListing: Decodable, Sendable, Equatable {
    public var feedID: Int64
    public var url: String
    public var title: String?
    public var link: String?
    public var description: String?
    public var imageURL: String?
    public var language: String?
    public var lastUpdate: Int64?

    enum CodingKeys: String, CodingKey {
        case url, title, link, description, language
        case feedID = "feedid"
        case imageURL = "image_url"
        case lastUpdate = "last_update_unix_time"
    }
}

/// One title of the title index.
public struct CatalogMatch: Decodable, Sendable, Equatable {
    public var key: String
    public var feedID: Int64
    public var title: String

    enum CodingKeys: String, CodingKey {
        case key, title
        case feedID = "feedid"
    }
}
