import Foundation

/// Browsing and searching a publication's catalog a page or a run at a time, without
/// downloading `all_feeds.sqlite` (226 MB at a million feeds): for an app that lets its user
/// choose feeds (issue 51). The root names an index (`catalog_index`); the index names groups
/// of pages of 250 feed ids and groups of runs of the title index; every file is checked
/// against the SHA-256 and size that names it before it is read (docs/client-contract.md,
/// browsing the catalog).
public struct PublicationCatalog: Sendable {
    public let baseURL: URL
    public let transport: any ClientTransport
    /// The publisher's keys this client pins (``PublicationSync/trustedKeys``): the root must
    /// be signed by one of them; the index, groups, pages and runs are then vouched for by the
    /// SHA-256 that names each. Empty: no check.
    public let trustedKeys: [TrustedKey]

    /// The index format this client reads.
    public static let knownIndexFormatVersion = 2

    public init(baseURL: URL, transport: any ClientTransport = DefaultTransport.make(), trustedKeys: [TrustedKey] = []) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")
        self.transport = transport
        self.trustedKeys = trustedKeys
    }

    /// The index the root names now (one request for the root, one for the index).
    public func index() async throws(ClientError) -> CatalogIndex {
        let rootURL = baseURL.appendingPathComponent("manifest.json")
        let root: RootWithIndex
        do {
            var bytes = try await body(rootURL, maxBytes: PublicationSync.manifestByteLimit)
            if !trustedKeys.isEmpty { bytes = try SignatureCheck.verified(bytes, keys: trustedKeys, file: "manifest.json") }
            root = try JSONDecoder().decode(RootWithIndex.self, from: bytes)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .manifestUnreadable(url: rootURL, reason: ClientError.describe(decoding: error))
        }
        guard let named = root.catalogIndex else {
            throw .manifestUnreadable(url: rootURL, reason: "it names no catalog_index (a publisher from before issue 51, or shards)")
        }
        let read: IndexDocument = try await document(named.file, prefix: "catalog_index.", sha256: named.sha256, size: named.size)
        guard let index = read.index else {
            throw .unusableEntry(
                file: named.file,
                reason: "it is catalog index format_version \(read.formatVersion.map(String.init) ?? "(none)"), which this client does not read "
                    + "(it reads \(Self.knownIndexFormatVersion))")
        }
        guard index.pageSize > 0, index.groupSize > 0 else { throw .unusableEntry(file: named.file, reason: "its page_size or group_size is not positive") }
        for group in index.pageGroups { try PublicationNames.checkCatalogPart(group.file, prefix: "catalog_pages_\(group.group).", sha256: group.sha256) }
        for group in index.titleGroups { try PublicationNames.checkCatalogPart(group.file, prefix: "catalog_title_group.", sha256: group.sha256) }
        return index
    }

    /// The feeds of page `number` (ids `number × pageSize` …), empty when the index has none:
    /// its group, then the page (two requests).
    public func page(_ number: Int, of index: CatalogIndex) async throws(ClientError) -> [CatalogListing] {
        guard number >= 0, index.groupSize > 0, let group = index.pageGroups.first(where: { $0.group == number / index.groupSize }) else { return [] }
        let pages: PageGroupDocument = try await document(group.file, prefix: "catalog_pages_\(group.group).", sha256: group.sha256, size: group.size)
        guard pages.group == group.group, pages.pages.allSatisfy({ $0.page / index.groupSize == group.group }) else {
            throw .unusableEntry(file: group.file, reason: "it names a page of another group")
        }
        guard let page = pages.pages.first(where: { $0.page == number }) else { return [] }
        let document: PageDocument = try await document(page.file, prefix: "catalog_page_\(number).", sha256: page.sha256, size: page.size)
        guard document.feeds.allSatisfy({ $0.feedID / Int64(index.pageSize) == Int64(number) }) else {
            throw .unusableEntry(file: page.file, reason: "it lists a feed of another page")
        }
        return document.feeds
    }

    /// One feed's row: its page group and its page read.
    public func feed(_ feedID: Int64, in index: CatalogIndex) async throws(ClientError) -> CatalogListing? {
        guard feedID >= 0, index.pageSize > 0 else { return nil }
        return try await page(Int(feedID / Int64(index.pageSize)), of: index).first { $0.feedID == feedID }
    }

    /// Titles starting with `text` (folded as the publisher folds them: ``fold(_:)``), in the
    /// index's order, at most `limit`. The titles are sorted by key (UTF-8 bytes), so those
    /// starting with the text are consecutive: from the last group (then run) starting before
    /// it, groups and runs are read in order until `limit` are found or one starts past it. A
    /// query costs a title group and a run or a few (each at most 2,048 titles), not the catalog.
    public func search(_ text: String, in index: CatalogIndex, limit: Int = 50) async throws(ClientError) -> [CatalogMatch] {
        let query = Array(Self.fold(text).utf8)
        guard limit > 0 else { return [] }
        var matches: [CatalogMatch] = []
        for group in Self.covering(query, index.titleGroups.map(\.firstKey)).map({ index.titleGroups[$0] }) {
            let runs: TitleGroupDocument = try await document(group.file, prefix: "catalog_title_group.", sha256: group.sha256, size: group.size)
            for run in Self.covering(query, runs.chunks.map(\.firstKey)).map({ runs.chunks[$0] }) {
                let document: TitlesDocument = try await document(run.file, prefix: "catalog_titles.", sha256: run.sha256, size: run.size)
                matches += document.titles.filter { $0.key.utf8.starts(with: query) }
                if matches.count >= limit { return Array(matches.prefix(limit)) }
            }
        }
        return matches
    }

    /// The positions, among parts starting at `firstKeys` (in the index's order), of those that
    /// can hold a key starting with `query`: from the last one starting before it to the last
    /// one starting with it.
    static func covering(_ query: [UInt8], _ firstKeys: [String]) -> [Int] {
        var positions: [Int] = []
        for (position, key) in firstKeys.enumerated() {
            let first = Array(key.utf8)
            if first.lexicographicallyPrecedes(query) {
                positions = [position]
            } else if first.starts(with: query) {
                positions.append(position)
            } else {
                break
            }
        }
        return positions
    }

    /// The publisher's folding of a title, which a search compares: case, diacritics and width
    /// folded, runs of white space as one space, none at either end.
    public static func fold(_ title: String) -> String {
        let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private func body(_ url: URL, maxBytes: Int) async throws(ClientError) -> Data {
        let response: TransportResponse
        do {
            response = try await transport.fetch(TransportRequest(url: url, maxBytes: maxBytes))
        } catch let error as ClientError {
            throw error
        } catch {
            throw .transport(url: url, reason: error.localizedDescription)
        }
        guard response.status == 200 else { throw .httpStatus(url: url, status: response.status) }
        guard response.body.count <= maxBytes else { throw .tooLarge(url: url, limit: maxBytes) }
        return response.body
    }

    /// A file of the index, checked by name, size and SHA-256 before it is decoded.
    private func document<Document: Decodable>(_ name: String, prefix: String, sha256: String, size: Int) async throws(ClientError) -> Document {
        try PublicationNames.checkCatalogPart(name, prefix: prefix, sha256: sha256)
        let url = baseURL.appendingPathComponent(name)
        let data = try await body(url, maxBytes: max(0, size))
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

    /// The index file: its format version, and the index when it is the format this client reads.
    private struct IndexDocument: Decodable {
        var formatVersion: Int?
        var index: CatalogIndex?
        enum CodingKeys: String, CodingKey { case formatVersion = "format_version" }

        init(from decoder: any Decoder) throws {
            formatVersion = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .formatVersion)
            index = formatVersion == PublicationCatalog.knownIndexFormatVersion ? try CatalogIndex(from: decoder) : nil
        }
    }

    private struct PageGroupDocument: Decodable {
        var group: Int
        var pages: [CatalogIndex.Page]
    }

    private struct PageDocument: Decodable {
        var feeds: [CatalogListing]
    }

    private struct TitleGroupDocument: Decodable {
        var chunks: [CatalogIndex.Run]
    }

    private struct TitlesDocument: Decodable {
        var titles: [CatalogMatch]
    }
}

/// `catalog_index.<sha256>.json`, format 2.
public struct CatalogIndex: Decodable, Sendable, Equatable {
    public var pageSize: Int
    public var groupSize: Int
    public var feedCount: Int
    public var pageGroups: [PageGroup]
    public var titleCount: Int
    public var titleGroups: [TitleGroup]

    enum CodingKeys: String, CodingKey {
        case pageSize = "page_size"
        case groupSize = "group_size"
        case feedCount = "feed_count"
        case pageGroups = "page_groups"
        case titleCount = "title_count"
        case titleGroups = "title_groups"
    }

    public struct PageGroup: Decodable, Sendable, Equatable {
        public var group: Int
        public var file: String
        public var sha256: String
        public var size: Int
        public var pages: Int
        public var count: Int
    }

    public struct Page: Decodable, Sendable, Equatable {
        public var page: Int
        public var file: String
        public var sha256: String
        public var size: Int
        public var count: Int
    }

    public struct TitleGroup: Decodable, Sendable, Equatable {
        public var firstKey: String
        public var firstFeedID: Int64
        public var file: String
        public var sha256: String
        public var size: Int
        public var chunks: Int
        public var count: Int

        enum CodingKeys: String, CodingKey {
            case file, sha256, size, chunks, count
            case firstKey = "first_key"
            case firstFeedID = "first_feedid"
        }
    }

    public struct Run: Decodable, Sendable, Equatable {
        public var firstKey: String
        public var firstFeedID: Int64
        public var file: String
        public var sha256: String
        public var size: Int
        public var count: Int

        enum CodingKeys: String, CodingKey {
            case file, sha256, size, count
            case firstKey = "first_key"
            case firstFeedID = "first_feedid"
        }
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
