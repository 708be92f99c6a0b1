import FeedBasics

/// A video player an entry embeds with an `<iframe>`, from the allow-list Miniflux keeps
/// (YouTube, youtube-nocookie, Vimeo: host without `www.` equal to `youtube.com`,
/// `youtube-nocookie.com` or `player.vimeo.com`), written as a plain link to the video
/// instead of a frame: for YouTube with the video's thumbnail as the link's picture.
///
/// Why a link and not a sandboxed `<iframe>`: clients show entries in WebViews, mostly from
/// an HTML string with no origin of their own, where YouTube's player refuses to play (it
/// needs a referrer: "error 153") and a frame would load the player's scripts, cookies and
/// trackers as soon as the entry is opened, offline readers show an empty box, and every
/// client would have to trust our sandbox attributes. A link works in every client, loads
/// nothing but one picture until the reader taps it, and keeps the output free of frames,
/// so the promise "no `iframe` reaches a client" stays simple to check. Every other frame is
/// still removed with its content.
struct VideoEmbed: Equatable {
    enum Provider: String {
        case youTube = "YouTube"
        case vimeo = "Vimeo"
    }

    var provider: Provider
    /// The video's own page.
    var watchURL: String
    /// A picture of the video (YouTube's `hqdefault.jpg`), when one has a known address.
    var thumbnailURL: String?

    /// The video `src` (absolute, already through ``URLResolver/isWebURL(_:)``) plays, or
    /// `nil` for any other frame.
    init?(src: String) {
        let url = URIComponents(src)
        guard let scheme = url.scheme, scheme == "https" || scheme == "http", var host = url.authority?.lowercased() else { return nil }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        let path = url.path.split(separator: "/", omittingEmptySubsequences: true)
        let query = Self.queryItems(url.query)
        switch host {
        case "youtube.com", "youtube-nocookie.com":
            guard path.count == 2, path[0] == "embed" else { return nil }
            provider = .youTube
            if path[1] == "videoseries" {
                guard let list = query["list"], Self.isToken(list) else { return nil }
                watchURL = "https://www.youtube.com/playlist?list=" + list
                thumbnailURL = nil
                return
            }
            let id = String(path[1])
            guard id.utf8.count == 11, Self.isToken(id) else { return nil }
            var watch = "https://www.youtube.com/watch?v=" + id
            if let start = query["start"], let seconds = Int(start), seconds > 0 { watch += "&t=\(seconds)s" }
            watchURL = watch
            thumbnailURL = "https://i.ytimg.com/vi/" + id + "/hqdefault.jpg"
        case "player.vimeo.com":
            guard path.count == 2, path[0] == "video", !path[1].isEmpty, path[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            provider = .vimeo
            // An unlisted video's page needs its hash (`?h=`) in the path.
            if let hash = query["h"], Self.isToken(hash) {
                watchURL = "https://vimeo.com/\(path[1])/\(hash)"
            } else {
                watchURL = "https://vimeo.com/\(path[1])"
            }
            thumbnailURL = nil
        default:
            return nil
        }
    }

    /// Letters, digits, `-` and `_`: what video ids, playlist ids and hashes are made of,
    /// so that nothing else of the frame's URL reaches the link.
    private static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    private static func queryItems(_ query: String?) -> [Substring: Substring] {
        var items: [Substring: Substring] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, items[parts[0]] == nil { items[parts[0]] = parts[1] }
        }
        return items
    }
}
