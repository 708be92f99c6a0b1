import CLibXML2

/// An HTML fragment parsed by libxml2's forgiving HTML parser (tag soup welcome), kept
/// only as long as a closure needs it.
///
/// The fragment is wrapped in a `<div>` so that libxml2 does not invent a `<p>` around
/// top-level text; callers walk the wrapper's children.
enum HTMLFragment {
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    static func withParsed<Result>(_ html: String, _ body: (xmlNodePtr?) -> Result) -> Result {
        withParsed(utf8: Array(html.utf8)[...], body)
    }

    static func withParsed<Result>(utf8 html: ArraySlice<UInt8>, _ body: (xmlNodePtr?) -> Result) -> Result {
        _ = initialised
        let prefix = "<html><body><div>".utf8, suffix = "</div></body></html>".utf8
        var wrapped: [UInt8] = []
        wrapped.reserveCapacity(prefix.count + html.count + suffix.count)
        wrapped.append(contentsOf: prefix)
        wrapped.append(contentsOf: html)
        wrapped.append(contentsOf: suffix)
        let options = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOIMPLIED.rawValue
        let document = wrapped.withUnsafeBufferPointer { buffer -> htmlDocPtr? in
            guard let base = buffer.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                htmlReadMemory(pointer, Int32(buffer.count), nil, "UTF-8", Int32(options))
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        guard let document else { return body(nil) }
        return body(wrapper(in: document))
    }

    /// The first `<div>` below `<body>`: the wrapper.
    private static func wrapper(in document: htmlDocPtr) -> xmlNodePtr? {
        var node = xmlDocGetRootElement(document)
        for name in ["body", "div"] {
            node = firstChild(of: node, named: name)
        }
        return node
    }

    private static func firstChild(of parent: xmlNodePtr?, named name: String) -> xmlNodePtr? {
        var child = parent?.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, nodeName(current) == name { return current }
            child = current.pointee.next
        }
        return nil
    }

    /// libxml2's HTML parser already lowercases element and attribute names.
    static func nodeName(_ node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
    }

    /// Attribute `(name, value)` pairs in document order.
    static func attributes(_ node: xmlNodePtr) -> [(name: String, value: String)] {
        var result: [(String, String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = current.pointee.name.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? ""
            var value = ""
            if let text = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                value = String(cString: UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))
                feedmill_xmlFree(text)
            }
            result.append((name, value))
            attribute = current.pointee.next
        }
        return result
    }
}
