import CLibXML2
import Foundation

/// One feed listed in an OPML file.
public struct OPMLOutline: Sendable, Equatable {
    /// `xmlUrl` as written (possibly relative to the OPML file).
    public var xmlURL: String
    /// `title`, else `text`.
    public var title: String?
    public var htmlURL: String?
    /// Titles of the enclosing outlines, outermost first.
    public var categoryPath: [String]

    public init(xmlURL: String, title: String? = nil, htmlURL: String? = nil, categoryPath: [String] = []) {
        self.xmlURL = xmlURL
        self.title = title
        self.htmlURL = htmlURL
        self.categoryPath = categoryPath
    }
}

/// Why an OPML file could not be read.
public enum OPMLError: Error, Equatable, CustomStringConvertible {
    case notOPML(found: String)
    /// libxml2 gave up part-way (nesting deeper than its limit of 256 levels, for one): what
    /// follows that line was never read, so importing the rest would silently drop feeds.
    case stopped(line: Int, reason: String)

    public var description: String {
        switch self {
        case .notOPML(let found): return "not an OPML file: found \(found)"
        case .stopped(let line, let reason):
            return "could not be read past line \(line) (\(reason)); nothing was imported, so no feed is silently dropped"
        }
    }
}

/// Reads feed lists: nested outlines, `xmlUrl`, `title`/`text`, `htmlUrl`; outlines without
/// `xmlUrl` are folders whose titles become the category path.
///
/// Through libxml2's SAX2 push parser, set up by ``SafePushParser`` as for feeds, keeping
/// only the outlines (``OutlineCollector``). A tree of the document was simpler but cost
/// about 1.6 KB per listed feed while the list was read, four times the memory of a
/// million-feed import (`Scripts/bench/run import`).
public enum OPMLParser {
    /// Bytes handed to libxml2 per call, so that it never copies the whole document.
    static let chunkSize = 64 * 1024

    public static func parse(_ data: [UInt8]) throws(OPMLError) -> [OPMLOutline] {
        let decoded = CharacterEncoding.decode(data)
        let document = LexicalRepair.rewrite(decoded.utf8) ?? decoded.utf8
        let collector = OutlineCollector()
        let unmanaged = Unmanaged.passRetained(collector)
        defer { unmanaged.release() }
        guard let context = SafePushParser.makeContext(
            makeSAXHandler(), userData: unmanaged.toOpaque(), adding: XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        else {
            throw .notOPML(found: "no XML document")
        }
        defer { xmlFreeParserCtxt(context) }
        collector.context = context
        document.withUnsafeBufferPointer { buffer in
            var offset = 0
            repeat {
                let length = min(chunkSize, buffer.count - offset)
                let start = UnsafeRawPointer(buffer.baseAddress.map { $0 + offset })?.assumingMemoryBound(to: CChar.self)
                offset += length
                xmlParseChunk(context, start, Int32(length), offset == buffer.count ? 1 : 0)
            } while offset < buffer.count && context.pointee.disableSAX == 0
        }
        if let stopped = collector.stopped { throw stopped }
        guard let root = collector.rootName else { throw .notOPML(found: "no XML document") }
        // In recover mode libxml2 carries on after ordinary errors; it disables its callbacks
        // only when it halts (out of memory, say), leaving the rest of the file unread.
        if context.pointee.disableSAX != 0 {
            let error = context.pointee.lastError
            let reason = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "XML error \(error.code)"
            throw .stopped(line: Int(error.line), reason: reason)
        }
        guard root == "opml" else { throw .notOPML(found: "<\(root)>") }
        return collector.outlines
    }

    private static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            collector(context)?.startElement(localName: string(localName), attributes: SAXAttributes(base: attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { context, _, _, _ in
            collector(context)?.endElement()
        }
        return sax
    }
}

/// The collector behind libxml2's `userData` pointer (retained for the parse by ``OPMLParser``).
/// libxml2 always passes the pointer it was given; a callback without one has nothing to do.
private func collector(_ context: UnsafeMutableRawPointer?) -> OutlineCollector? {
    context.map { Unmanaged<OutlineCollector>.fromOpaque($0).takeUnretainedValue() }
}
