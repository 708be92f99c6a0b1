/// The syntax family a feed document was written in, as sniffed from its content.
///
/// The raw values are the strings `rss-inspect` prints and later stages store, so they never change.
public enum FeedFormat: String, Sendable, Codable, CaseIterable {
    /// RSS 0.90–0.94 and 2.0 (`<rss>` root).
    case rss
    /// Atom 0.3 and 1.0 (`<feed>` root).
    case atom
    /// RSS 1.0 and 0.90 in RDF (`<rdf:RDF>` root).
    case rdf
    /// JSON Feed 1.0 and 1.1.
    case json
}
