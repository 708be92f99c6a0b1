/// Why a document could not be read as a feed. Each case prints one line a person understands.
public enum FeedParseError: Error, Equatable, CustomStringConvertible {
    /// No bytes, or only white space.
    case empty
    /// Well-formed enough to read, but its root is not a feed (`html`, `svg`, an unknown JSON object …).
    case notAFeed(found: String)
    /// Neither XML nor JSON: no root element could be found at all.
    case unreadable(line: Int, column: Int, reason: String)
    /// Nesting deeper than ``ParserLimits/maxDepth``.
    case tooDeep(limit: Int, line: Int)
    /// One text value longer than ``ParserLimits/maxTextBytes``.
    case textTooLarge(element: String, limit: Int, line: Int)

    public var description: String {
        switch self {
        case .empty:
            return "the document is empty"
        case .notAFeed(let found):
            return "not a feed: found \(found)"
        case .unreadable(let line, let column, let reason):
            return "not a feed: no XML or JSON document could be read (line \(line), column \(column): \(reason))"
        case .tooDeep(let limit, let line):
            return "elements nested deeper than \(limit) levels at line \(line)"
        case .textTooLarge(let element, let limit, let line):
            return "text of <\(element)> longer than \(limit) bytes at line \(line)"
        }
    }
}

/// Bounds that keep a hostile or broken document from costing unbounded time or memory.
public struct ParserLimits: Sendable, Equatable {
    /// Deepest element nesting accepted; libxml2's own hard limit is 256.
    public var maxDepth: Int
    /// Largest single text value (a title, a content body) in bytes.
    public var maxTextBytes: Int
    /// How many recovered errors are kept as diagnostics (all are counted).
    public var maxDiagnostics: Int

    public init(maxDepth: Int = 128, maxTextBytes: Int = 8 << 20, maxDiagnostics: Int = 10) {
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
        self.maxDiagnostics = maxDiagnostics
    }

    public static let `default` = ParserLimits()
}
