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
/// `xmlUrl` are folders whose titles become the category path. OPML files are small, so a
/// libxml2 tree (recover mode, no network, no entities) is simplest.
public enum OPMLParser {
    public static func parse(_ data: [UInt8]) throws(OPMLError) -> [OPMLOutline] {
        let decoded = CharacterEncoding.decode(data)
        let document = LexicalRepair.rewrite(decoded.utf8) ?? decoded.utf8
        let options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_IGNORE_ENC.rawValue
        guard let context = xmlNewParserCtxt() else { throw .notOPML(found: "no XML document") }
        defer { xmlFreeParserCtxt(context) }
        let tree = document.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlCtxtReadMemory(context, $0, Int32(buffer.count), nil, "UTF-8", Int32(options))
                }
            } ?? nil
        }
        guard let tree else { throw .notOPML(found: "no XML document") }
        defer { xmlFreeDoc(tree) }
        // In recover mode libxml2 carries on after ordinary errors; it disables its callbacks
        // only when it halts (too deep, out of memory), leaving the rest of the file unread.
        if context.pointee.disableSAX != 0 {
            let error = context.pointee.lastError
            var reason = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "XML error \(error.code)"
            if reason.hasPrefix("Excessive depth") { reason = "outlines nest deeper than 256 levels, libxml2's limit" }
            throw .stopped(line: Int(error.line), reason: reason)
        }
        guard let root = xmlDocGetRootElement(tree), name(root) == "opml" else {
            let found = xmlDocGetRootElement(tree).map { "<\(name($0))>" } ?? "no root element"
            throw .notOPML(found: found)
        }
        var outlines: [OPMLOutline] = []
        for body in children(root) where name(body) == "body" {
            collect(body, path: [], into: &outlines)
        }
        return outlines
    }

    private static func collect(_ node: xmlNodePtr, path: [String], into outlines: inout [OPMLOutline]) {
        for child in children(node) where name(child) == "outline" {
            let title = attribute(child, "title") ?? attribute(child, "text")
            if let xmlURL = attribute(child, "xmlUrl") ?? attribute(child, "xmlurl") {
                outlines.append(OPMLOutline(xmlURL: xmlURL, title: title, htmlURL: attribute(child, "htmlUrl"), categoryPath: path))
            }
            collect(child, path: title.map { path + [$0] } ?? path, into: &outlines)
        }
    }

    private static func children(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func name(_ node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? ""
    }

    private static func attribute(_ node: xmlNodePtr, _ attribute: String) -> String? {
        guard let value = xmlGetProp(node, attribute) else { return nil }
        defer { feedmill_xmlFree(value) }
        let text = String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)).trimmed
        return text.isEmpty ? nil : text
    }
}
