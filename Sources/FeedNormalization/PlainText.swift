import CLibXML2
import FeedModel

/// Titles and authors as plain text: tags stripped, entities decoded, white space collapsed.
///
/// RSS titles are read as HTML, because in the wild they carry escaped markup and
/// double-escaped entities (`AT&amp;amp;T`) far more often than a literal `<`. Atom titles
/// follow their `type`: `text` is taken literally.
public enum PlainText {
    public static func from(_ text: FeedText) -> String {
        switch text.kind {
        case .text:
            return collapseWhitespace(text.value)
        case .html, .xhtml:
            return fromHTML(text.value)
        }
    }

    public static func fromHTML(_ html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return collapseWhitespace(html)
        }
        let text = HTMLFragment.withParsed(html) { wrapper -> String in
            var collected = ""
            appendText(of: wrapper, to: &collected)
            return collected
        }
        return collapseWhitespace(text)
    }

    private static let blockElements: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "blockquote", "pre",
        "hr", "table", "section", "article",
    ]

    private static func appendText(of node: xmlNodePtr?, to output: inout String) {
        var child = node?.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                output += HTMLFragment.content(current)
            case XML_ELEMENT_NODE:
                let name = HTMLFragment.nodeName(current)
                if name != "script", name != "style" {
                    let block = blockElements.contains(name)
                    if block { output += " " }
                    appendText(of: current, to: &output)
                    if block { output += " " }
                }
            default:
                break
            }
            child = current.pointee.next
        }
    }

    /// Runs of white space (including no-break spaces) become one space; ends trimmed.
    public static func collapseWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar == "\u{00A0}" {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
