/// The name a request path asks for, when `rss-serve` may serve it. A publication is a flat
/// set of plain names (client contract): one path component, printable ASCII, not hidden (the
/// publisher's `.feedmill-intent…` and `.feedmill-lock…` stay private, as nginx's `deny` keeps
/// them). Nothing is percent-decoded, so no encoded `..` or `/` can reach the file system;
/// `/` is the health page, `index.html`.
enum PublishedFileName {
    static func from(path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        let name = path == "/" ? "index.html" : String(path.dropFirst())
        guard !name.isEmpty, !name.hasPrefix("."), name.utf8.count <= 255,
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "%") })
        else { return nil }
        return name
    }
}
