import CLibXML2
import FeedModel
import Foundation

/// Streams a UTF-8 XML document through libxml2's SAX2 push parser into a ``FeedElementHandler``.
///
/// Why SAX2 and not `xmlTextReader`: on feeds with large text nodes (full-text feeds with
/// 100 KB+ entries) the reader walk measured about 3× slower here, and the reader stops at
/// the first fatal error where the push parser in recover mode carries on
/// (`Scripts/bench/run parse-floor` reruns the comparison).
///
/// Safe by construction:
/// - libxml2 is set up by ``SafePushParser``: no network, and `getEntity` knows only XML's
///   five predefined entities, so nothing is ever loaded (no XXE) or expanded (no billion
///   laughs).
/// - The SAX handler has no entity-declaration, external-subset or resolve-entity callbacks.
/// - ``LexicalRepair`` has already turned every named reference into a numeric one, so
///   substituting entities (`replaceEntities`) only ever decodes character references.
///
/// Fed as the document arrives: the prolog is held until its internal DTD subset (if any) is
/// known, ``LexicalRepair`` holds back at most a few bytes, at most one 64 KiB slice waits
/// to be given to libxml2, and libxml2 keeps only what it has not parsed yet, so a large
/// feed is never in memory whole.
final class XMLFeedParser {
    /// Bytes handed to libxml2 per call: bounds libxml2's own input buffer on large feeds.
    static let chunkSize = 64 * 1024
    /// A prolog longer than this is not waited for: its declared entities are not expanded.
    static let prologLimit = 1 << 20

    private let handler: FeedElementHandler
    private let unmanaged: Unmanaged<FeedElementHandler>
    private let context: xmlParserCtxtPtr
    /// Knows no declared entities until the prolog is known; then replaced by one that knows
    /// the prolog's (``append(_:isLast:)``). No byte reaches it before that.
    private var repair = LexicalRepair(declared: DeclaredEntities())
    private var prologIsKnown = false
    /// Bytes received and not yet given to libxml2 (the prolog, or what the repair held back).
    private var held: [UInt8] = []
    private var repaired: [UInt8] = []
    /// Repaired bytes not yet given to libxml2: less than a slice, or a whole one waiting for
    /// a byte after it (``parse(_:isLast:)``).
    private var staged: [UInt8] = []
    private var terminated = false

    /// - Parameter deliver: called with each entry as its element closes.
    init(limits: ParserLimits, deliver: @escaping (consuming ParsedEntry, ParsedFeed) -> Void) throws(FeedParseError) {
        handler = FeedElementHandler(limits: limits, deliver: deliver)
        unmanaged = Unmanaged.passRetained(handler)
        guard let context = SafePushParser.makeContext(
            Self.makeSAXHandler(), userData: unmanaged.toOpaque(), adding: XML_PARSE_NOCDATA.rawValue)
        else {
            unmanaged.release()
            throw FeedParseError.unreadable(line: 0, column: 0, reason: "libxml2 could not create a parser")
        }
        self.context = context
        handler.context = context
    }

    deinit {
        if let myDoc = context.pointee.myDoc { xmlFreeDoc(myDoc) }
        xmlFreeParserCtxt(context)
        unmanaged.release()
    }

    /// libxml2 stopped reading: the rest of the document would change nothing.
    var isStopped: Bool {
        handler.stopError != nil || context.pointee.disableSAX != 0 && handler.feed == nil
    }

    /// Parses the next UTF-8 bytes of the document (`isLast`: the end of it).
    func append(_ utf8: UnsafeBufferPointer<UInt8>, isLast: Bool) {
        guard !terminated else { return }
        if !prologIsKnown {
            held.append(contentsOf: utf8)
            if !isLast, held.count < Self.prologLimit, case .incomplete = DeclaredEntities.scanProlog(held) { return }
            repair = LexicalRepair(declared: DeclaredEntities(document: held))
            prologIsKnown = true
        } else if !held.isEmpty {
            held.append(contentsOf: utf8)
        } else {
            repairAndParse(utf8, isLast: isLast)
            return
        }
        let input = held
        held = []
        input.withUnsafeBufferPointer { repairAndParse($0, isLast: isLast) }
    }

    /// The feed, once the whole document has been appended.
    func finish() throws(FeedParseError) -> ParsedFeed {
        if !terminated { append(UnsafeBufferPointer(start: nil, count: 0), isLast: true) }
        return try handler.finish()
    }

    private func repairAndParse(_ input: UnsafeBufferPointer<UInt8>, isLast: Bool) {
        repaired.removeAll(keepingCapacity: true)
        let (used, changed) = repair.repair(input, isLast: isLast, into: &repaired)
        if used < input.count { held = Array(input[used...]) }
        if changed {
            repaired.withUnsafeBufferPointer { parse($0, isLast: isLast) }
        } else {
            parse(UnsafeBufferPointer(rebasing: input[..<used]), isLast: isLast)
        }
        if repaired.capacity > 4 * Self.chunkSize { repaired = [] }
    }

    /// Hands libxml2 the document in the same slices however it arrived: `chunkSize` bytes
    /// from the start, each given once a byte after it is in, and the rest with the end. Its
    /// recovery from broken markup depends on where its chunks end, so slices that followed
    /// the network's packets read a broken document differently from one fetch to the next.
    private func parse(_ buffer: UnsafeBufferPointer<UInt8>, isLast: Bool) {
        if staged.isEmpty {
            let given = giveSlices(of: buffer, isLast: isLast)
            staged.append(contentsOf: buffer[given...])
        } else {
            staged.append(contentsOf: buffer)
            let given = staged.withUnsafeBufferPointer { giveSlices(of: $0, isLast: isLast) }
            staged.removeFirst(given)
        }
    }

    /// Gives libxml2 every whole slice with a byte after it (at the end, everything, the last
    /// slice marked so); returns how many bytes it gave (or dropped, once libxml2 stopped).
    private func giveSlices(of buffer: UnsafeBufferPointer<UInt8>, isLast: Bool) -> Int {
        var offset = 0
        while isLast || buffer.count - offset > Self.chunkSize {
            if isStopped {
                terminated = true
                return buffer.count
            }
            let length = min(Self.chunkSize, buffer.count - offset)
            let end = isLast && offset + length == buffer.count
            let start = UnsafeRawPointer(buffer.baseAddress.map { $0 + offset })?.assumingMemoryBound(to: CChar.self)
            xmlParseChunk(context, start, Int32(length), end ? 1 : 0)
            offset += length
            if end {
                terminated = true
                break
            }
        }
        return offset
    }

    private static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            elementHandler(context)?.startElement(
                localName: localName, prefix: prefix, uri: uri,
                attributes: SAXAttributes(base: attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { context, _, _, _ in
            elementHandler(context)?.endElement()
        }
        sax.characters = { context, characters, length in
            guard let characters, length > 0 else { return }
            elementHandler(context)?.characters(UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        sax.cdataBlock = sax.characters
        sax.serror = { context, error in
            guard let context, let error else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            elementHandler(context)?.recordError(
                line: Int(error.pointee.line), column: Int(error.pointee.int2),
                message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return sax
    }
}

/// The handler behind libxml2's `userData` pointer (retained for the parse by ``XMLFeedParser``).
/// libxml2 always passes the pointer it was given; a callback without one has nothing to do.
private func elementHandler(_ context: UnsafeMutableRawPointer?) -> FeedElementHandler? {
    context.map { Unmanaged<FeedElementHandler>.fromOpaque($0).takeUnretainedValue() }
}
