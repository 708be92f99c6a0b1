import FeedBasics
import FeedModel

/// RFC 3986 reference resolution (§5.2), written out rather than delegated to Foundation's
/// `URL`, whose Linux behaviour with spaces, IRIs and odd bases varies between releases:
/// stored permalinks must not change when the toolchain does.
public enum URLResolver {
    /// A base URL taken apart once, for resolving many references against it (every link in
    /// an entry's HTML): parsing the base again for each link was a third of resolving.
    public struct Base: Sendable {
        let components: URIComponents
        /// `scheme://authority`, what a path like `/notes/1` (most relative links) is appended to.
        let origin: String?

        /// `nil` when `base` is missing or not absolute: relative references then stay unresolved.
        public init?(_ base: String?) {
            guard let base else { return nil }
            let components = URIComponents(URLResolver.clean(base))
            guard let scheme = components.scheme else { return nil }
            self.components = components
            origin = components.authority.map { scheme + "://" + $0 }
        }
    }

    /// `reference` made absolute against `base`; `nil` when neither makes it absolute.
    /// Most links in feeds are already absolute and clean: they are returned as they are,
    /// without parsing the base or taking them apart (the same string either way).
    public static func resolve(_ reference: String, against base: String?) -> String? {
        let cleaned = clean(reference)
        if isCanonicalAbsolute(cleaned) { return cleaned }
        return resolve(notCanonical: cleaned, against: Base(base))
    }

    /// The same, against a base parsed once.
    public static func resolve(_ reference: String, againstParsed base: Base?) -> String? {
        let cleaned = clean(reference)
        if isCanonicalAbsolute(cleaned) { return cleaned }
        return resolve(notCanonical: cleaned, against: base)
    }

    /// RFC 3986 §5.2.2 for a cleaned reference ``isCanonicalAbsolute(_:)`` has turned down.
    private static func resolve(notCanonical cleaned: String, against base: Base?) -> String? {
        if let origin = base?.origin, isPlainAbsolutePath(cleaned) { return origin + cleaned }
        let target = URIComponents(cleaned)
        if target.scheme != nil { return target.withDotSegmentsRemoved().string }
        guard let baseComponents = base?.components else { return nil }
        var result = URIComponents()
        result.scheme = baseComponents.scheme
        if target.authority != nil {
            result.authority = target.authority
            result.path = removeDotSegments(target.path)
            result.query = target.query
        } else {
            result.authority = baseComponents.authority
            if target.path.isEmpty {
                result.path = baseComponents.path
                result.query = target.query ?? baseComponents.query
            } else {
                if target.path.hasPrefix("/") {
                    result.path = removeDotSegments(target.path)
                } else {
                    result.path = removeDotSegments(merge(base: baseComponents, path: target.path))
                }
                result.query = target.query
            }
        }
        result.fragment = target.fragment
        return result.string
    }

    /// Resolves through a chain: the document's base, then each `xml:base` outermost first,
    /// then the reference itself.
    public static func resolve(_ reference: String, bases: [String], documentBase: String?) -> String? {
        var base = documentBase
        for next in bases {
            if let resolved = resolve(next, against: base) { base = resolved }
        }
        return resolve(reference, against: base)
    }

    /// Whether `url` is an absolute `http`/`https` URL with a host: the only kind Feedmill
    /// stores as a permalink or serves to clients.
    public static func isWebURL(_ url: String) -> Bool {
        var url = url
        return url.withUTF8(isWebURL)
    }

    /// Read on the UTF-8 bytes in one pass, with no allocation: every link of every entry is
    /// checked, and splitting the URL into strings first was a tenth of normalisation.
    private static func isWebURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // `http:` or `https:`, in any case, then `//`.
        func lower(_ byte: UInt8) -> UInt8 { byte | (byte.isASCIIAlpha ? 0x20 : 0) }
        guard bytes.count >= 7, lower(bytes[0]) == UInt8(ascii: "h"), lower(bytes[1]) == UInt8(ascii: "t"),
            lower(bytes[2]) == UInt8(ascii: "t"), lower(bytes[3]) == UInt8(ascii: "p")
        else { return false }
        var index = lower(bytes[4]) == UInt8(ascii: "s") ? 5 : 4
        guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return false }
        index += 3
        // The authority runs to the path, query or fragment; the host follows its last
        // non-empty `@`-separated part (empty parts skipped, as splitting skips them).
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
            end += 1
        }
        var host = index..<end
        var partEnd = end
        for position in stride(from: end - 1, through: index - 1, by: -1) where position < index || bytes[position] == UInt8(ascii: "@") {
            if partEnd > position + 1 {
                host = position + 1..<partEnd
                break
            }
            partEnd = position
        }
        guard !host.isEmpty, bytes[host.lowerBound] != UInt8(ascii: ":") else { return false }
        // An IP literal is `[…]` first; anywhere else a bracket, a space or a control
        // character means the URL is malformed (`http://example.c[o.test/`).
        var name = host
        if bytes[host.lowerBound] == UInt8(ascii: "[") {
            guard let close = host.first(where: { bytes[$0] == UInt8(ascii: "]") }) else { return false }
            name = close + 1..<host.upperBound
        }
        return !name.contains { position in
            let byte = bytes[position]
            return byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: " ") || byte < 0x20
                || byte == UInt8(ascii: "\\")
        }
    }

    /// A lower-case scheme and nothing dot-segment removal could change: no `/.` anywhere and
    /// no `.` right after the scheme. What `URIComponents(text).withDotSegmentsRemoved().string`
    /// would give back unchanged.
    static func isCanonicalAbsolute(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
            var index = 1
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                let byte = bytes[index]
                let schemeByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                guard schemeByte else { return false }
                index += 1
            }
            guard index < bytes.count, index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: ".") else { return false }
            return !containsSlashDot(bytes, from: index)
        }
    }

    /// `/path?query#fragment` with nothing dot-segment removal could change (no `/.`): the
    /// general resolution would keep it exactly, after the base's scheme and authority.
    static func isPlainAbsolutePath(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/"), bytes.count == 1 || bytes[1] != UInt8(ascii: "/") else { return false }
            return !containsSlashDot(bytes, from: 0)
        }
    }

    /// Whether `/.` occurs at or after `start`: where a dot segment could begin, so where
    /// dot-segment removal might change a path.
    private static func containsSlashDot(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var position = start
        while position + 1 < bytes.count {
            if bytes[position] == UInt8(ascii: "/"), bytes[position + 1] == UInt8(ascii: ".") { return true }
            position += 1
        }
        return false
    }

    private static func merge(base: URIComponents, path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// RFC 3986 §5.2.4, on the path's UTF-8 bytes (segment boundaries are ASCII).
    static func removeDotSegments(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return path }
        var input = Array(path.utf8)[...]
        var output: [ArraySlice<UInt8>] = []
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        func starts(_ prefix: [UInt8]) -> Bool { input.starts(with: prefix) }
        func equals(_ value: [UInt8]) -> Bool { input.elementsEqual(value) }
        while !input.isEmpty {
            if starts([dot, dot, slash]) {
                input = input.dropFirst(3)
            } else if starts([dot, slash]) {
                input = input.dropFirst(2)
            } else if starts([slash, dot, slash]) {
                input = input.dropFirst(2)
            } else if equals([slash, dot]) {
                input = [slash][...]
            } else if starts([slash, dot, dot, slash]) {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if equals([slash, dot, dot]) {
                input = [slash][...]
                if !output.isEmpty { output.removeLast() }
            } else if equals([dot]) || equals([dot, dot]) {
                input = []
            } else {
                let searchStart = input.first == slash ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: slash) ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return String(decoding: output.joined(), as: UTF8.self)
    }

    /// Trims white space and percent-encodes the characters that may never appear in a URI
    /// (spaces, controls, `"<>\^`{|}`). Non-ASCII characters are left for the client (IRIs).
    static func clean(_ reference: String) -> String {
        var trimmed = reference.trimmingASCIIWhitespace()
        guard trimmed.withUTF8({ $0.contains(where: needsEncoding) }) else { return trimmed }
        var bytes: [UInt8] = []
        for byte in trimmed.utf8 {
            if needsEncoding(byte) {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(contentsOf: Array(String(byte, radix: 16, uppercase: true).leftPadded(to: 2).utf8))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func needsEncoding(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
            UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }
}

/// A URI split by RFC 3986 Appendix B's expression.
struct URIComponents {
    var scheme: String?
    var authority: String?
    var path = ""
    var query: String?
    var fragment: String?

    init() {}

    /// Splits on the ASCII delimiters of the UTF-8 bytes; no grapheme breaking needed.
    init(_ text: String) {
        let bytes = Array(text.utf8)
        var end = bytes.count
        func slice(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragment = slice(hash + 1..<end)
            end = hash
        }
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = slice(question + 1..<end)
            end = question
        }
        var start = 0
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), Self.isScheme(bytes[..<colon]) {
            let name = bytes[..<colon]
            scheme = name.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
                ? String(decoding: name.map { $0 | 0x20 }, as: UTF8.self) : slice(0..<colon)
            start = colon + 1
        }
        if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
            start += 2
            let authorityEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            authority = slice(start..<authorityEnd)
            start = authorityEnd
        }
        path = slice(start..<end)
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
    private static func isScheme(_ candidate: ArraySlice<UInt8>) -> Bool {
        guard let first = candidate.first, first.isASCIIAlpha else { return false }
        return candidate.allSatisfy { $0.isASCIIAlpha || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    func withDotSegmentsRemoved() -> URIComponents {
        var copy = self
        copy.path = URLResolver.removeDotSegments(path)
        return copy
    }

    /// Built in one buffer of the right size: every relative link of every entry is resolved.
    var string: String {
        var result = ""
        result.reserveCapacity(
            (scheme?.utf8.count ?? 0) + (authority?.utf8.count ?? 0) + path.utf8.count + (query?.utf8.count ?? 0)
                + (fragment?.utf8.count ?? 0) + 5)
        if let scheme {
            result.append(scheme)
            result.append(":")
        }
        if let authority {
            result.append("//")
            result.append(authority)
        }
        result.append(path)
        if let query {
            result.append("?")
            result.append(query)
        }
        if let fragment {
            result.append("#")
            result.append(fragment)
        }
        return result
    }
}

extension UInt8 {
    fileprivate var isASCIIAlpha: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
