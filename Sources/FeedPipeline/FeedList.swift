import FeedBasics
import FeedFetching
import FeedNormalization
import FeedParsing
import FeedStorage

#if canImport(Glibc)
import Glibc
#endif

/// The feed list (OPML), read and checked before `rss-create` touches the catalog: a list
/// that cannot be read leaves nothing behind, not an empty catalog that later runs would
/// report as "0 feeds".
public struct FeedList: Sendable {
    public var source: String
    /// The outlines to import.
    public var outlines: [CatalogOutline]
    /// The outlines refused, each with the reason.
    public var rejected: [String]

    /// A feed URL must be an absolute http(s) URL (the only kind fetched, and the only kind
    /// that reaches clients); a site link that is not one is dropped. Relative `xmlUrl`s are
    /// resolved against `base` when given, else against the list's own URL when it was
    /// fetched; in a local file they are refused, since a `file://` feed would fail forever.
    public static func load(_ source: String, base: String? = nil, configuration: FetchConfiguration) throws(PipelineError) -> FeedList {
        if case .file(let path) = FeedSource(source) {
            // Said with its errno, so that "not there" (66) and "not yours" (77) are told apart.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .feedListUnreadable(path: path, code: errno) }
            close(descriptor)
        }
        let document = try rethrowing(
            try FeedSource(source).load(configuration: configuration),
            as: { (error: SourceError) in PipelineError.feedList(source: source, reason: error.description) })
        let outlines = try rethrowing(
            try OPMLParser.parse(document.bytes), as: { (error: OPMLError) in PipelineError.feedList(source: source, reason: error.description) })
        let fetched = URLResolver.isWebURL(document.origin)
        let resolveAgainst = base ?? (fetched ? document.origin : nil)
        var list = FeedList(source: source, outlines: [], rejected: [])
        for outline in outlines {
            guard let url = URLResolver.resolve(outline.xmlURL, against: resolveAgainst), URLResolver.isWebURL(url) else {
                // No scheme of its own, and nothing to resolve it against.
                let relative = resolveAgainst == nil && URLResolver.resolve(outline.xmlURL, against: nil) == nil
                list.rejected.append(
                    relative
                        ? "\(outline.xmlURL): a relative feed URL in a local file; give --base URL to resolve it"
                        : "\(outline.xmlURL): a feed URL must be an absolute http or https URL")
                continue
            }
            let siteLink = outline.htmlURL.flatMap { URLResolver.resolve($0, against: resolveAgainst) }.flatMap {
                URLResolver.isWebURL($0) ? $0 : nil
            }
            list.outlines.append(CatalogOutline(
                url: url, title: outline.title, siteLink: siteLink,
                category: outline.categoryPath.isEmpty ? nil : outline.categoryPath.joined(separator: "/")))
        }
        return list
    }
}
