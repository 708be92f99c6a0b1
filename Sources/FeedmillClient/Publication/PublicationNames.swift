/// The content-addressed names of publication format 2 (`feed_<id>.<sha256>.sqlite`,
/// `feed_<id>.<sha256>.delta.json`, `all_feeds.<sha256>.sqlite`, the catalog's pages), checked before a name from a
/// root or a pointer is fetched: a name of another feed, or one whose hex is not the SHA-256
/// the entry gives, was not written by a publisher, and is refused with the name it should
/// have had. Every accepted name is also a ``SafeName`` plain name.
enum PublicationNames {
    static func checkSnapshot(_ name: String, feedID: Int64, sha256: String) throws(ClientError) {
        try check(name, prefix: "feed_\(feedID).", suffix: ".sqlite", sha256: sha256)
    }

    static func checkDelta(_ name: String, feedID: Int64, sha256: String) throws(ClientError) {
        try check(name, prefix: "feed_\(feedID).", suffix: ".delta.json", sha256: sha256)
    }

    static func checkCatalog(_ name: String, sha256: String) throws(ClientError) {
        try check(name, prefix: "all_feeds.", suffix: ".sqlite", sha256: sha256)
    }

    /// A piece of the catalog for browsing (`catalog_index.`, `catalog_page_<k>.`,
    /// `catalog_titles.` then the SHA-256 and `.json`).
    static func checkCatalogPart(_ name: String, prefix: String, sha256: String) throws(ClientError) {
        try check(name, prefix: prefix, suffix: ".json", sha256: sha256)
    }

    private static func check(_ name: String, prefix: String, suffix: String, sha256: String) throws(ClientError) {
        let expected = prefix + sha256.lowercased() + suffix
        guard SafeName.isPlain(name) else { throw .unsafeName(name) }
        guard name == expected, isLowerHex64(sha256) else {
            throw .misnamed(name: name, expected: isLowerHex64(sha256.lowercased()) ? expected : prefix + "<sha256>" + suffix)
        }
    }

    private static func isLowerHex64(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f")) }
    }
}
