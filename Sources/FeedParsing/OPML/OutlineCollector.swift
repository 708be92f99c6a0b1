import CLibXML2

/// Receives an OPML document's elements from libxml2's SAX2 parser and keeps only the feeds:
/// the document is never built as a tree.
///
/// `outline` elements count where a walk of the tree from its root finds them: children of a
/// `body` that is a child of the root, and their `outline` children, at any depth. An outline without
/// `xmlUrl` is a folder: its title joins the category path of what it contains.
final class OutlineCollector {
    /// The nesting limit libxml2 applied when it built a tree, kept so that a list nested
    /// deeper is still refused whole rather than imported in part.
    static let maxDepth = 256

    /// The root element's local name, once seen.
    private(set) var rootName: String?
    private(set) var outlines: [OPMLOutline] = []
    /// Why the collector stopped libxml2 before the end of the document.
    private(set) var stopped: OPMLError?
    var context: xmlParserCtxtPtr?

    /// One entry per open element: the category path its `outline` children get, or `nil`
    /// where outlines are not read (anything but the root's `body` and the outlines in it).
    private var open: [[String]?] = []

    func startElement(localName: String, attributes: SAXAttributes) {
        guard open.count < Self.maxDepth else {
            stopped = .stopped(line: Int(feedmill_xmlInputLine(context)), reason: "outlines nest deeper than \(Self.maxDepth) levels")
            if let context { xmlStopParser(context) }
            return
        }
        let parentPath = open.last ?? nil
        if open.isEmpty {
            rootName = localName
            open.append(nil)
        } else if open.count == 1, localName == "body", rootName == "opml" {
            open.append([])
        } else if localName == "outline", let path = parentPath {
            let title = Self.value(attributes, "title") ?? Self.value(attributes, "text")
            if let xmlURL = Self.value(attributes, "xmlUrl") ?? Self.value(attributes, "xmlurl") {
                outlines.append(OPMLOutline(xmlURL: xmlURL, title: title, htmlURL: Self.value(attributes, "htmlUrl"), categoryPath: path))
            }
            open.append(title.map { path + [$0] } ?? path)
        } else {
            open.append(nil)
        }
    }

    func endElement() {
        _ = open.popLast()
    }

    /// An attribute's value by local name, in any namespace (as `xmlGetProp`), trimmed;
    /// `nil` when absent or blank.
    private static func value(_ attributes: SAXAttributes, _ name: String) -> String? {
        guard let text = attributes.value(name)?.trimmed, !text.isEmpty else { return nil }
        return text
    }
}
