import CLibXML2
import FeedBasics
import FeedModel

/// Makes an entry's HTML safe for a client to display, and absolute.
///
/// The fragment is parsed by libxml2's HTML parser and written back from an allowlist:
/// - Removed with their content: `script`, `style`, `iframe`, `frame(set)`, `object`,
///   `embed`, `applet`, `form` controls, `noscript`, `template`, `svg`, `math`, document-level
///   elements (`head`, `title`, `meta`, `link`, `base`), and comments.
/// - Unknown elements are unwrapped: their text stays, their tag goes.
/// - Attributes: only an allowlist (no `on*` event handlers, no `style`, `class` or `id`).
/// - URLs in `href`, `src`, `cite`, `poster` and `srcset` are resolved against the entry's
///   base; any that is not `http`/`https` (or `mailto` for links) is dropped, which removes
///   `javascript:`, `vbscript:` and `data:` whatever their spelling.
/// The output is deterministic: the same input always gives the same bytes.
public struct HTMLSanitizer: Sendable {
    /// Base for relative URLs; `nil` drops relative URLs, which cannot be made absolute.
    public var baseURL: String? {
        didSet { base = URLResolver.Base(baseURL) }
    }
    /// `baseURL` taken apart once for all the entry's links.
    private var base: URLResolver.Base?

    public init(baseURL: String?) {
        self.baseURL = baseURL
        base = URLResolver.Base(baseURL)
    }

    public func sanitize(_ text: FeedText) -> String {
        switch text.kind {
        case .text:
            var output: [UInt8] = []
            Markup.appendEscaped(text.value.trimmingASCIIWhitespace(), to: &output, lineBreaks: true)
            return String(decoding: output, as: UTF8.self)
        case .html, .xhtml:
            return sanitize(htmlUTF8: text.utf8[...])
        }
    }

    public func sanitize(html: String) -> String {
        sanitize(htmlUTF8: Array(html.utf8)[...])
    }

    private func sanitize(htmlUTF8 html: ArraySlice<UInt8>) -> String {
        let trimmed = html.trimmingASCIIWhitespace()
        guard trimmed.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ">") }) else {
            return String(decoding: trimmed, as: UTF8.self)
        }
        return HTMLFragment.withParsed(utf8: trimmed) { wrapper -> String in
            var output: [UInt8] = []
            output.reserveCapacity(trimmed.count)
            writeChildren(of: wrapper, to: &output)
            return String(decoding: output[...].trimmingASCIIWhitespace(), as: UTF8.self)
        }
    }

    private static let removedWithContent: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "noscript", "noframes",
        "template", "svg", "math", "form", "input", "button", "select", "textarea", "option", "head", "title", "meta",
        "link", "base",
    ]

    private static let allowedElements: Set<String> = [
        "a", "abbr", "acronym", "address", "article", "aside", "audio", "b", "bdi", "bdo", "big", "blockquote", "br",
        "caption", "center", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em",
        "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "ins", "kbd",
        "li", "mark", "ol", "p", "picture", "pre", "q", "rp", "rt", "ruby", "s", "samp", "section", "small", "source",
        "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr",
        "tt", "u", "ul", "var", "video", "wbr",
    ]

    private static let voidElements: Set<String> = ["br", "col", "hr", "img", "source", "wbr"]

    private static let allowedAttributes: Set<String> = [
        "href", "src", "srcset", "alt", "title", "width", "height", "colspan", "rowspan", "cite", "datetime", "lang",
        "dir", "poster", "controls", "start", "reversed", "abbr", "scope", "type", "loop", "muted", "align", "valign",
    ]

    private static let urlAttributes: Set<String> = ["href", "src", "cite", "poster"]

    private func writeChildren(of node: xmlNodePtr?, to output: inout [UInt8]) {
        var child = node?.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { Markup.appendEscaped(UnsafePointer(content), to: &output) }
            case XML_ELEMENT_NODE:
                writeElement(current, to: &output)
            default:
                break
            }
            child = current.pointee.next
        }
    }

    private func writeElement(_ node: xmlNodePtr, to output: inout [UInt8]) {
        let name = HTMLFragment.nodeName(node)
        if Self.removedWithContent.contains(name) { return }
        guard Self.allowedElements.contains(name) else {
            writeChildren(of: node, to: &output)
            return
        }
        var attributes: [(String, String)] = []
        if node.pointee.properties != nil {
            for (attribute, value) in HTMLFragment.attributes(node) where Self.allowedAttributes.contains(attribute) {
                if Self.urlAttributes.contains(attribute) {
                    guard let url = safeURL(value, allowMail: attribute == "href") else { continue }
                    attributes.append((attribute, url))
                } else if attribute == "srcset" {
                    guard let srcset = safeSrcset(value) else { continue }
                    attributes.append((attribute, srcset))
                } else {
                    attributes.append((attribute, value))
                }
            }
        }
        if name == "img", !attributes.contains(where: { $0.0 == "src" }) { return }
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name.utf8)
        for (attribute, value) in attributes {
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: attribute.utf8)
            output.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
            Markup.appendEscaped(value, to: &output, attribute: true)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: ">"))
        if Self.voidElements.contains(name) { return }
        writeChildren(of: node, to: &output)
        output.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: ">"))
    }

    private func safeURL(_ value: String, allowMail: Bool) -> String? {
        // White space and control characters are dropped (`java\tscript:` is `javascript:`);
        // they are single UTF-8 bytes, so the bytes are filtered, and only when there are any.
        let dropped = { (byte: UInt8) in byte <= 0x20 || byte == 0x7F }
        let compact = value.utf8.contains(where: dropped) ? String(decoding: value.utf8.filter { !dropped($0) }, as: UTF8.self) : value
        if allowMail, compact.utf8.count >= 7, compact.utf8.prefix(7).map({ $0 | 0x20 }).elementsEqual("mailto:".utf8.map { $0 | 0x20 }) {
            return compact
        }
        guard let resolved = URLResolver.resolve(compact, againstParsed: base), URLResolver.isWebURL(resolved) else {
            return nil
        }
        return resolved
    }

    /// `srcset="a.jpg 1x, b.jpg 2x"`: each candidate URL resolved; unsafe ones dropped.
    private func safeSrcset(_ value: String) -> String? {
        let candidates = value.split(separator: ",").compactMap { candidate -> String? in
            let parts = candidate.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard let first = parts.first, let url = safeURL(String(first), allowMail: false) else { return nil }
            return ([url] + parts.dropFirst().map(String.init)).joined(separator: " ")
        }
        return candidates.isEmpty ? nil : candidates.joined(separator: ", ")
    }
}
