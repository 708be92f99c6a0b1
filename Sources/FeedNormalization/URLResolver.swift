/// RFC 3986 reference resolution (§5.2), written out rather than delegated to Foundation's
/// `URL`, whose Linux behaviour with spaces, IRIs and odd bases varies between releases:
/// stored permalinks must not change when the toolchain does.
public enum URLResolver {
    /// `reference` made absolute against `base`; `nil` when neither makes it absolute.
    public static func resolve(_ reference: String, against base: String?) -> String? {
        let cleaned = clean(reference)
        let target = URIComponents(cleaned)
        if target.scheme != nil { return target.withDotSegmentsRemoved().string }
        guard let base, let baseComponents = Optional(URIComponents(clean(base))), baseComponents.scheme != nil else {
            return nil
        }
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
        let components = URIComponents(url)
        guard let scheme = components.scheme, scheme == "http" || scheme == "https" else { return false }
        guard let authority = components.authority else { return false }
        let host = authority.split(separator: "@").last.map(String.init) ?? authority
        return !host.isEmpty && !host.hasPrefix(":")
    }

    private static func merge(base: URIComponents, path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// RFC 3986 §5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// Trims white space and percent-encodes the characters that may never appear in a URI
    /// (spaces, controls, `"<>\^`{|}`). Non-ASCII characters are left for the client (IRIs).
    static func clean(_ reference: String) -> String {
        let trimmed = reference.trimmingASCIIWhitespace()
        guard trimmed.utf8.contains(where: needsEncoding) else { return trimmed }
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
        byte <= 0x20 || byte == 0x7F || "\"<>\\^`{|}".utf8.contains(byte)
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

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private static func isScheme(_ candidate: Substring) -> Bool {
        guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return candidate.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar))
        }
    }

    func withDotSegmentsRemoved() -> URIComponents {
        var copy = self
        copy.path = URLResolver.removeDotSegments(path)
        return copy
    }

    var string: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
