import CLibXML2
import FeedModel
import Foundation

/// Streams a UTF-8 XML document through libxml2's SAX2 push parser into a ``FeedElementHandler``.
///
/// Why SAX2 and not `xmlTextReader`: on feeds with large text nodes (full-text feeds with
/// 100 KB+ entries) the reader walk measured about 3× slower here, and the reader stops at
/// the first fatal error where the push parser in recover mode carries on
/// (`Scripts/bench/parse-corpus` reruns the comparison).
///
/// Safe by construction:
/// - `XML_PARSE_NONET`, and no `XML_PARSE_NOENT`, `DTDLOAD` or `HUGE`.
/// - The SAX handler has no entity-declaration, external-subset or resolve-entity callbacks,
///   and `getEntity` knows only XML's five predefined entities: a document's DTD can declare
///   what it likes, nothing is ever stored, loaded (no XXE) or expanded (no billion laughs).
/// - ``LexicalRepair`` has already turned every named reference into a numeric one, so
///   substituting entities (`replaceEntities`) only ever decodes character references.
enum XMLFeedParser {
    /// Bytes handed to libxml2 per call: bounds libxml2's own input buffer on large feeds.
    static let chunkSize = 64 * 1024

    /// libxml2 must be initialised once before parsers run on several threads.
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    static func parse(utf8 document: [UInt8], limits: ParserLimits) throws -> ParsedFeed {
        _ = initialised
        let rewritten = LexicalRepair.rewrite(document) ?? document
        let handler = FeedElementHandler(limits: limits)
        var sax = makeSAXHandler()
        let unmanaged = Unmanaged.passRetained(handler)
        defer { unmanaged.release() }
        guard let context = xmlCreatePushParserCtxt(&sax, unmanaged.toOpaque(), nil, 0, nil) else {
            throw FeedParseError.unreadable(line: 0, column: 0, reason: "libxml2 could not create a parser")
        }
        defer {
            if let myDoc = context.pointee.myDoc { xmlFreeDoc(myDoc) }
            xmlFreeParserCtxt(context)
        }
        let options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue
            | XML_PARSE_NOCDATA.rawValue
        xmlCtxtUseOptions(context, Int32(options))
        xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
        feedmill_xmlSetReplaceEntities(context, 1)
        handler.context = context

        rewritten.withUnsafeBufferPointer { buffer in
            var offset = 0
            repeat {
                let length = min(chunkSize, buffer.count - offset)
                let isLast = offset + length >= buffer.count
                let start = UnsafeRawPointer(buffer.baseAddress.map { $0 + offset })?.assumingMemoryBound(to: CChar.self)
                xmlParseChunk(context, start, Int32(length), isLast ? 1 : 0)
                offset += length
                if handler.stopError != nil || context.pointee.disableSAX != 0 && handler.feed == nil { break }
            } while offset < buffer.count
        }
        return try handler.finish()
    }

    private static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            elementHandler(context).startElement(
                localName: localName, prefix: prefix, uri: uri,
                attributes: SAXAttributes(base: attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { context, _, _, _ in
            elementHandler(context).endElement()
        }
        sax.characters = { context, characters, length in
            guard let characters, length > 0 else { return }
            elementHandler(context).characters(UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        sax.cdataBlock = sax.characters
        sax.getEntity = { _, name in
            xmlGetPredefinedEntity(name)
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            elementHandler(context).recordError(
                line: Int(error.pointee.line), column: Int(error.pointee.int2),
                message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return sax
    }
}

/// The handler behind libxml2's `userData` pointer (retained for the parse by ``XMLFeedParser``).
private func elementHandler(_ context: UnsafeMutableRawPointer?) -> FeedElementHandler {
    Unmanaged<FeedElementHandler>.fromOpaque(context!).takeUnretainedValue()
}
