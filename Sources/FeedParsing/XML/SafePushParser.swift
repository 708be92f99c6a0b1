import CLibXML2

/// libxml2's SAX2 push parser, set up the one way every Feedmill parser uses it (feeds and
/// feed lists alike), so that the two cannot drift apart:
/// - recover mode and `XML_PARSE_NONET`; never `XML_PARSE_NOENT`, `DTDLOAD` or `HUGE`;
/// - the bytes taken as UTF-8 (``CharacterEncoding`` has decoded them already);
/// - `getEntity` knows only XML's five predefined entities: a document's DTD can declare what
///   it likes, nothing is ever loaded (no XXE) or expanded (no billion laughs), and
///   substituting entities (`replaceEntities`) only ever decodes character references.
enum SafePushParser {
    /// What every parser gets; a caller adds its own options to these.
    static let options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue

    /// libxml2 must be initialised once before parsers run on several threads.
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// A push parser for `sax` (its `getEntity` replaced as above) with `userData` handed to
    /// each callback; `nil` when libxml2 cannot make one.
    static func makeContext(
        _ sax: xmlSAXHandler, userData: UnsafeMutableRawPointer, adding extraOptions: UInt32 = 0
    ) -> xmlParserCtxtPtr? {
        _ = initialised
        var sax = sax
        sax.getEntity = { _, name in
            xmlGetPredefinedEntity(name)
        }
        guard let context = xmlCreatePushParserCtxt(&sax, userData, nil, 0, nil) else { return nil }
        xmlCtxtUseOptions(context, Int32(options | extraOptions))
        xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
        feedmill_xmlSetReplaceEntities(context, 1)
        return context
    }
}
