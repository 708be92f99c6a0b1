/// The host part of a feed URL, read by hand rather than through Foundation's `URLComponents`,
/// whose `host` runs IDNA through ICU: the first call loaded ICU's normalisation data, 1.2 MiB
/// of resident memory for a value we only compare (grouping transfers per host, `no_proxy`,
/// the private-network check). libcurl does its own IDNA when it connects.
///
/// Here, below the fetcher, so that the shard of a feed (``ShardAssignment/shardIndex(ofURL:count:)``)
/// is decided from the very host the fetcher's per-host limit counts, by every command that
/// asks (rss-update fetching a shard's feeds, rss-publish publishing them).
public enum URLHost {
    /// The host of a `scheme://authority…` URL, lower-cased, without user info, brackets or
    /// port; `nil` when the URL has no authority.
    public static func of(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        var authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return authority[authority.index(after: authority.startIndex)..<close].lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }
}
