import FeedBasics
import FeedModel

/// Reads a feed as its bytes arrive: each entry is handed on as soon as it is complete, so
/// a feed of any size is never held whole, as bytes or as entries.
///
/// The same rules as reading the document at once (``FeedParser/parse(_:charset:limits:)`` is
/// this, fed in one go): characters are decoded by ``StreamingDecoder``, the format is sniffed
/// from the first bytes that are not white space (a `{` means JSON Feed, a `<` XML, whose root
/// element decides), never taken from a URL or a Content-Type.
public final class FeedStreamParser {
    private enum Format {
        /// The first bytes that are not white space have not arrived yet.
        case sniffing
        case xml(XMLFeedParser, htmlPage: Bool)
        /// JSON Feed, its items cut out as they complete (``JSONFeedStream``, in `json`).
        case json
        case rejected(FeedParseError)
    }

    /// Bytes the sniff waits for after the first one that is not white space (enough for
    /// `<!doctype html`).
    static let sniffLength = 64

    private let limits: ParserLimits
    private let deliver: (consuming ParsedEntry, ParsedFeed) -> Void
    private var decoder: StreamingDecoder
    private var format = Format.sniffing
    private var decoded: [UInt8] = []
    private var json = JSONFeedStream()
    private var finished = false

    /// - Parameters:
    ///   - charset: the transport's charset (`Content-Type: …; charset=`), if any.
    ///   - deliver: called with each entry, in document order, and the feed as read so far.
    public init(
        charset: String?, limits: ParserLimits = .default, deliver: @escaping (consuming ParsedEntry, ParsedFeed) -> Void
    ) {
        self.limits = limits
        self.deliver = deliver
        self.decoder = StreamingDecoder(transportCharset: charset)
    }

    /// Nothing more this document could bring would change the outcome (the parser stopped
    /// at a limit, or the document is not a feed): a transfer may stop here.
    public var isStopped: Bool {
        switch format {
        case .rejected: return true
        case .xml(let parser, _): return parser.isStopped
        case .json: return json.invalid != nil
        case .sniffing: return false
        }
    }

    /// Bytes decoded and repaired per step. A caller may hand over a whole held body, or a
    /// whole file, at once; taken a slice at a time, the decoder's output, the lexical repair's
    /// output and libxml2's input stay one slice long instead of growing to the body's size.
    static let pieceSize = XMLFeedParser.chunkSize

    /// The next bytes of the document, as received (any amount; read a slice at a time).
    public func append(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, !isStopped {
            let end = min(offset + Self.pieceSize, bytes.count)
            consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), isLast: false)
            offset = end
        }
    }

    /// Ends the document. Throws when it is not a feed; otherwise returns the feed without its
    /// entries, which were all delivered.
    public func finish() throws(FeedParseError) -> ParsedFeed {
        if !finished { consume(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true) }
        var feed: ParsedFeed
        switch format {
        case .sniffing:
            throw FeedParseError.empty
        case .rejected(let error):
            throw error
        case .json:
            feed = try json.finish()
        case .xml(let parser, let htmlPage):
            do {
                feed = try parser.finish()
            } catch {
                // A feed wrapped in an XHTML page is still a feed; any other page is not.
                guard !htmlPage else { throw FeedParseError.notAFeed(found: "an HTML page") }
                throw error
            }
        }
        feed.encoding = decoder.name
        feed.diagnostics.insert(contentsOf: decoder.notes, at: 0)
        return feed
    }

    private func consume(_ bytes: UnsafeRawBufferPointer, isLast: Bool) {
        guard !finished else { return }
        finished = isLast
        switch format {
        case .rejected:
            return
        case .xml(let parser, _) where decoded.isEmpty:
            // The usual path: decoded bytes go straight on to libxml2 through one reused buffer.
            decoder.decode(bytes, isLast: isLast, into: &decoded)
            decoded.withUnsafeBufferPointer { parser.append($0, isLast: isLast) }
            decoded.removeAll(keepingCapacity: decoded.capacity <= 4 * XMLFeedParser.chunkSize)
            return
        case .xml, .sniffing, .json:
            decoder.decode(bytes, isLast: isLast, into: &decoded)
        }
        if case .sniffing = format {
            guard let first = decoded.firstIndex(where: { !$0.isASCIIWhitespace }) else {
                if isLast { decoded = [] }
                return
            }
            guard isLast || decoded.count - first >= Self.sniffLength else { return }
            format = sniff(decoded[first...])
        }
        switch format {
        case .xml(let parser, _):
            decoded.withUnsafeBufferPointer { parser.append($0, isLast: isLast) }
            decoded = []
        case .json:
            let items = decoded.withUnsafeBufferPointer { json.append($0) }
            decoded.removeAll(keepingCapacity: true)
            let feed = ParsedFeed(format: .json)
            for item in items { deliver(JSONFeedParser.entry(item), feed) }
        case .rejected:
            decoded = []
        case .sniffing:
            break
        }
    }

    private func sniff(_ start: ArraySlice<UInt8>) -> Format {
        switch start.first {
        case UInt8(ascii: "{"):
            return .json
        case UInt8(ascii: "<"):
            do {
                return .xml(try XMLFeedParser(limits: limits, deliver: deliver), htmlPage: Self.looksLikeHTML(start))
            } catch {
                return .rejected(error)
            }
        default:
            return .rejected(.unreadable(line: 1, column: 1, reason: "starts with neither '<' nor '{'"))
        }
    }

    /// `<!doctype html` (any case; HTML5's lowercase form is not XML, and libxml2 stops at it
    /// before any root element) or `<html` as the first markup.
    static func looksLikeHTML(_ start: ArraySlice<UInt8>) -> Bool {
        let head = String(decoding: start.prefix(sniffLength), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }
}
