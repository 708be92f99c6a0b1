import FeedBasics

/// Writes the sanitiser's output from ``HTMLTokenizer``'s tokens: kept elements with their
/// checked attributes, escaped text, nothing else. It keeps the open kept elements on a
/// stack, so every element it opens it closes, in order, whatever the input did:
/// - a start tag closes what browsers close for it (`<p>` an open `p`, `<li>` an open `li`
///   in the same list, `<td>` an open cell in the same row, `<a>` an open `a`);
/// - an end tag closes its element and everything opened after it, unless that would close
///   an element of a higher rank (``HTMLElement/endTagRank``); one that matches nothing open
///   is dropped;
/// - a self-closed element (`<div/>`, common from XHTML writers) is written empty;
/// - past ``maximumDepth`` open elements, further ones are unwrapped.
/// Besides: a `math` element is written as its text only, an image dropped for its URL
/// leaves its `alt` text, a video player's frame becomes a link (``VideoEmbed``), and links
/// inside the entry are finished at the end, when all its anchors are known (``EntryAnchors``).
struct SanitizedHTMLWriter: HTMLTokenSink {
    static let maximumDepth = 256

    private let sanitizer: HTMLSanitizer
    private(set) var output: [UInt8] = []
    private var open: [HTMLElement] = []
    /// The removed element whose content is being skipped, and how many of the same name
    /// are nested inside it.
    private var skipping: HTMLElement?
    private var skippedNesting = 0
    /// How many `math` elements are open, inside which only text is written.
    private var mathDepth = 0
    /// The entry's anchors (unprefixed), and where same-entry links' `href` values go in
    /// `output`, with the fragment each points at.
    private var anchorsSeen = AnchorsSeen()
    private var entryLinks: [(offset: Int, fragment: Substring)] = []

    init(sanitizer: HTMLSanitizer, capacity: Int) {
        self.sanitizer = sanitizer
        output.reserveCapacity(capacity)
    }

    var wantsAttributes: Bool { skipping == nil }

    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard skipping == nil else { return }
        Markup.appendEscaped(utf8, to: &output)
    }

    mutating func startTag(_ element: HTMLElement, attributes: [HTMLAttribute], selfClosing: Bool) {
        if let skipped = skipping {
            if element == skipped, !selfClosing { skippedNesting += 1 }
            return
        }
        if mathDepth > 0 {
            startTagInMath(element, selfClosing: selfClosing)
            return
        }
        switch element.role {
        case .removedWithContent:
            if element == .iframe, let video = sanitizer.videoEmbed(attributes) {
                writeLink(to: video, title: attributes.first(where: { $0.name == .title })?.value)
            }
            if !element.isVoid, !selfClosing { skip(element) }
        case .textOnly:
            if let alternative = attributes.first(where: { $0.name == .alttext })?.value.trimmingASCIIWhitespace(),
                !alternative.isEmpty
            {
                Markup.appendEscaped(alternative, to: &output)
                if !selfClosing { skip(element) }
            } else if !selfClosing {
                mathDepth = 1
            }
        case .unwrapped:
            return
        case .kept:
            guard open.count < Self.maximumDepth else { return }
            closeImplied(by: element)
            guard let kept = sanitizer.keptAttributes(of: element, attributes, anchorsSeen: &anchorsSeen) else {
                // An image whose source was dropped still says what it showed.
                if let alt = attributes.first(where: { $0.name == .alt })?.value.trimmingASCIIWhitespace() {
                    Markup.appendEscaped(alt, to: &output)
                }
                return
            }
            writeStartTag(element, kept)
            if element.isVoid { return }
            if selfClosing {
                writeEndTag(element)
            } else {
                open.append(element)
            }
        }
    }

    mutating func endTag(_ element: HTMLElement) {
        if let skipped = skipping {
            guard element == skipped else { return }
            if skippedNesting == 0 { skipping = nil } else { skippedNesting -= 1 }
            return
        }
        if mathDepth > 0 {
            if element == .math { mathDepth -= 1 }
            return
        }
        guard element.role == .kept, !element.isVoid else { return }
        for position in open.indices.reversed() {
            if open[position] == element {
                close(downTo: position)
                return
            }
            if open[position].endTagRank > element.endTagRank { return }
        }
    }

    /// Closes everything still open, at the end of the input, and finishes the links inside
    /// the entry.
    mutating func closeAll() {
        if !open.isEmpty { close(downTo: 0) }
        if !entryLinks.isEmpty { finishEntryLinks() }
    }

    private mutating func skip(_ element: HTMLElement) {
        skipping = element
        skippedNesting = 0
    }

    /// Inside `math`: no tag is written; annotations (a formula's TeX or MathML source, which
    /// browsers do not show) and removed elements are skipped with their content.
    private mutating func startTagInMath(_ element: HTMLElement, selfClosing: Bool) {
        guard !selfClosing else { return }
        switch element {
        case .math: mathDepth += 1
        case .annotation, .annotationXML: skip(element)
        default: if element.role == .removedWithContent, !element.isVoid { skip(element) }
        }
    }

    // MARK: Links

    /// A video player's frame as a link to the video: its thumbnail, or its title, inside.
    private mutating func writeLink(to video: VideoEmbed, title: String?) {
        guard open.count < Self.maximumDepth else { return }
        closeImplied(by: .a)
        let trimmed = title?.trimmingASCIIWhitespace() ?? ""
        let label = trimmed.isEmpty ? video.provider.rawValue + " video" : trimmed
        writeStartTag(.a, [HTMLAttribute(name: .href, value: video.watchURL)])
        if let thumbnail = video.thumbnailURL {
            writeStartTag(.img, [HTMLAttribute(name: .src, value: thumbnail), HTMLAttribute(name: .alt, value: label)])
        } else {
            Markup.appendEscaped(label, to: &output)
        }
        writeEndTag(.a)
    }

    /// Writes each same-entry link's `href` value where it was left empty: to the prefixed
    /// anchor when the entry defines it, else to the entry's page (``EntryAnchors``).
    private mutating func finishEntryLinks() {
        guard let anchors = sanitizer.anchors else { return }
        var finished: [UInt8] = []
        finished.reserveCapacity(output.count + entryLinks.count * 32)
        let prefix = anchorsSeen.prefix(for: anchors)
        var copied = 0
        for link in entryLinks {
            finished.append(contentsOf: output[copied..<link.offset])
            let fragment = EntryAnchors.unprefixed(link.fragment, prefix: prefix)
            let href = anchors.href(toFragment: fragment, defined: anchorsSeen.names.contains(String(fragment)), prefix: prefix)
            Markup.appendEscaped(href, to: &finished, attribute: true)
            copied = link.offset
        }
        finished.append(contentsOf: output[copied...])
        output = finished
        entryLinks = []
    }

    // MARK: Implied closes

    private static let tableBoundaries: [HTMLElement] = [.table, .td, .th, .caption]

    private mutating func closeImplied(by element: HTMLElement) {
        if element.closesParagraph { closeOpen([.p], within: Self.tableBoundaries) }
        switch element {
        case .li: closeOpen([.li], within: [.ul, .ol] + Self.tableBoundaries)
        case .dd, .dt: closeOpen([.dd, .dt], within: [.dl] + Self.tableBoundaries)
        case .tr: closeOpen([.tr], within: [.table, .thead, .tbody, .tfoot])
        case .td, .th: closeOpen([.td, .th], within: [.tr, .table])
        case .thead, .tbody, .tfoot: closeOpen([.thead, .tbody, .tfoot], within: [.table])
        case .a: closeOpen([.a], within: Self.tableBoundaries)
        case .h1, .h2, .h3, .h4, .h5, .h6: if open.last?.isHeading == true { close(downTo: open.count - 1) }
        default: break
        }
    }

    /// Closes the innermost open element among `targets`, if one is open inside the
    /// innermost of `boundaries`.
    private mutating func closeOpen(_ targets: [HTMLElement], within boundaries: [HTMLElement]) {
        for position in open.indices.reversed() {
            if targets.contains(open[position]) {
                close(downTo: position)
                return
            }
            if boundaries.contains(open[position]) { return }
        }
    }

    private mutating func close(downTo position: Int) {
        while open.count > position {
            writeEndTag(open.removeLast())
        }
    }

    // MARK: Writing

    private mutating func writeStartTag(_ element: HTMLElement, _ attributes: [HTMLAttribute]) {
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: element.rawValue.utf8)
        for attribute in attributes {
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: attribute.name.rawValue.utf8)
            output.append(UInt8(ascii: "="))
            output.append(UInt8(ascii: "\""))
            // A kept `href` is absolute, or `#x` for a same-entry link, finished at the end.
            if attribute.name == .href, attribute.value.utf8.first == UInt8(ascii: "#") {
                entryLinks.append((output.count, attribute.value.dropFirst()))
            } else {
                Markup.appendEscaped(attribute.value, to: &output, attribute: true)
            }
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: ">"))
    }

    private mutating func writeEndTag(_ element: HTMLElement) {
        output.append(UInt8(ascii: "<"))
        output.append(UInt8(ascii: "/"))
        output.append(contentsOf: element.rawValue.utf8)
        output.append(UInt8(ascii: ">"))
    }
}
