/// The one check every name from a manifest passes before it becomes a local path or a URL:
/// a plain file name (letters, digits, `_`, `-`, `.`; not hidden, no folder), so a manifest can
/// never make the client write outside its folder, over its own state, or fetch elsewhere.
enum SafeName {
    static func isPlain(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= 255 else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    /// The stable names of the client contract: the only ones the client writes databases under.
    static let catalog = "all_feeds.sqlite"
    static func feed(_ feedID: Int64) -> String { "feed_\(feedID).sqlite" }
}
