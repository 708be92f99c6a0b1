/// The headers each name of a publication is served with (SPEC-41 §2), by object storage
/// (`rss-publish` uploading) and by `rss-serve` alike: a content-addressed name (a 64-hex
/// sha256 in it) never changes and is cached for a year (`immutable`); the root and the
/// pointers change every publication and are cached 30 s; stable names and pages 60 s; the
/// publisher's intent and lock are never cached.
public enum PublishedHeaders {
    public static let immutable = "public, max-age=31536000, immutable"
    public static let root = "public, max-age=30"
    public static let stable = "public, max-age=60"
    public static let uncached = "no-store"

    public static func cacheControl(of name: String) -> String {
        if name.hasPrefix(".feedmill-") { return uncached }
        if isImmutable(name) { return immutable }
        if name == "manifest.json" || isPointer(name) { return root }
        return stable
    }

    public static func contentType(of name: String) -> String {
        if name.hasSuffix(".sqlite") { return "application/vnd.sqlite3" }
        if name.hasSuffix(".json") { return "application/json" }
        if name.hasSuffix(".xml") { return "application/atom+xml" }
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        return "application/octet-stream"
    }

    /// A content-addressed name (a segment of 64 lower-case hex digits), or a format-1
    /// versioned one (`feed_3.v2.sqlite`, `feed_3.v1-v2.delta.json`): its bytes never change.
    public static func isImmutable(_ name: String) -> Bool {
        let segments = name.split(separator: ".")
        if segments.contains(where: { $0.count == 64 && $0.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) } }) {
            return true
        }
        return segments.contains { segment in
            segment.hasPrefix("v") && segment.count > 1 && segment.dropFirst().split(separator: "-").allSatisfy {
                let digits = $0.hasPrefix("v") ? $0.dropFirst() : $0
                return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
            }
        }
    }

    /// `feed_<id>.sqlite`: a feed's stable name, written only by the shard that owns the feed.
    public static func isFeedStableName(_ name: String) -> Bool {
        guard name.hasPrefix("feed_"), name.hasSuffix(".sqlite") else { return false }
        let id = name.dropFirst(5).dropLast(7)
        return !id.isEmpty && id.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `feed_<id>.json`.
    public static func isPointer(_ name: String) -> Bool {
        guard name.hasPrefix("feed_"), name.hasSuffix(".json") else { return false }
        let id = name.dropFirst(5).dropLast(5)
        return !id.isEmpty && id.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
