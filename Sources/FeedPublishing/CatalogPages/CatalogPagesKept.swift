import FeedBasics
import Foundation

/// The catalog's pages as a record keeps them: the index (its file named by the root). The
/// record holds only ``index``; the rest is read from the files it names (each checked against
/// the SHA-256 that names it) when the record is read (``read(_:from:)``), and is ``unread``
/// (page size 0, which no publication takes as its pages: they are written again) when any of
/// them cannot be.
public struct CatalogPagesKept: Codable, Equatable, Sendable {
    public var index: RootCatalogIndex
    /// The index's document.
    public var document: CatalogIndexDocument
    /// Every page the page groups name, by page number.
    public var pages: [CatalogPageEntry]
    /// Every run of the title index the title groups name, in order.
    public var titles: [CatalogTitlesEntry]
    /// Files of an index that is not read as this one (a format-1 index, or one whose groups
    /// could not all be read): named by this record only so that the next one retires them.
    var formerFiles: Set<String> = []

    public static let unread = CatalogIndexDocument(pageSize: 0, groupSize: 0, feedCount: 0, pageGroups: [], titleCount: 0, titleGroups: [])

    init(index: RootCatalogIndex, document: CatalogIndexDocument, pages: [CatalogPageEntry], titles: [CatalogTitlesEntry]) {
        self.index = index
        self.document = document
        self.pages = pages
        self.titles = titles
    }

    enum CodingKeys: String, CodingKey {
        case index, document
    }

    /// A record of format 3 holds its (format-1) index's document: its files are former ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        index = try container.decode(RootCatalogIndex.self, forKey: .index)
        (document, pages, titles) = (Self.unread, [], [])
        formerFiles = (try? container.decodeIfPresent(FormerIndex.self, forKey: .document))?.files ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
    }

    /// The index, its groups, pages and title runs.
    var files: Set<String> {
        var files = formerFiles
        files.insert(index.file)
        files.formUnion(document.pageGroups.map(\.file))
        files.formUnion(document.titleGroups.map(\.file))
        files.formUnion(pages.map(\.file))
        files.formUnion(titles.map(\.file))
        return files
    }

    /// The index `index` names with its groups' pages and runs, read by `read` (a file's bytes,
    /// or nil); ``unread`` when the index or a group is missing, is not the file its SHA-256
    /// and size name, or says what it cannot (a page of another group). What could be read is
    /// then kept as former files, for the next record to retire.
    static func read(_ index: RootCatalogIndex, from read: (String) -> [UInt8]?) -> CatalogPagesKept {
        var kept = CatalogPagesKept(index: index, document: unread, pages: [], titles: [])
        func verified(_ file: String, sha256: String, size: Int) -> Data? {
            guard let bytes = read(file), bytes.count == size, SHA256.hexDigest(bytes) == sha256 else { return nil }
            return Data(bytes)
        }
        func checked<Document: Decodable>(_ file: String, sha256: String, size: Int, as: Document.Type) -> Document? {
            verified(file, sha256: sha256, size: size).flatMap { try? JSONDecoder().decode(Document.self, from: $0) }
        }
        guard let indexBytes = verified(index.file, sha256: index.sha256, size: index.size) else { return kept }
        if let former = try? JSONDecoder().decode(FormerIndex.self, from: indexBytes), former.formatVersion == 1 {
            kept.formerFiles = former.files
            return kept
        }
        guard let document = try? JSONDecoder().decode(CatalogIndexDocument.self, from: indexBytes),
            document.formatVersion == CatalogIndexDocument.currentFormatVersion, document.pageSize > 0, document.groupSize > 0
        else { return kept }
        var complete = true
        var (pages, titles) = ([CatalogPageEntry](), [CatalogTitlesEntry]())
        for group in document.pageGroups {
            if let read = checked(group.file, sha256: group.sha256, size: group.size, as: CatalogPageGroupDocument.self),
                read.group == group.group, read.pages.count == group.pages,
                read.pages.allSatisfy({ $0.page >= 0 && $0.page / document.groupSize == group.group })
            {
                pages += read.pages
            } else {
                complete = false
            }
        }
        for group in document.titleGroups {
            if let read = checked(group.file, sha256: group.sha256, size: group.size, as: CatalogTitleGroupDocument.self),
                read.chunks.count == group.chunks
            {
                titles += read.chunks
            } else {
                complete = false
            }
        }
        guard complete else {
            kept.formerFiles = Set(document.pageGroups.map(\.file) + document.titleGroups.map(\.file) + pages.map(\.file) + titles.map(\.file))
            return kept
        }
        kept.document = document
        kept.pages = pages.sorted { $0.page < $1.page }
        kept.titles = titles
        return kept
    }

    /// Whether a publication may take these pages as its own (otherwise it writes them all).
    func fits(pageSize: Int, groupSize: Int) -> Bool {
        document.pageSize == pageSize && document.groupSize == groupSize
    }

    /// What a format-1 index names.
    private struct FormerIndex: Decodable {
        var formatVersion: Int?
        var pages: [Named]
        var titles: [Named]
        struct Named: Decodable { var file: String }
        var files: Set<String> { Set(pages.map(\.file) + titles.map(\.file)) }
        enum CodingKeys: String, CodingKey {
            case pages, titles
            case formatVersion = "format_version"
        }
    }
}
