import CLibXML2
import Foundation
import FeedModel

/// Receives libxml2's SAX2 callbacks and builds a ``ParsedFeed`` as the document streams by.
///
/// It keeps its own element stack rather than trusting libxml2's: in recover mode libxml2
/// closes the innermost element on any end tag, so an unclosed `<br>` or `<p>` in an
/// item's raw HTML would otherwise shift every later end tag by one and merge entries.
/// The stack records which elements were really closed (void HTML elements that received
/// content, RSS elements appearing inside a description) and pops accordingly.
final class FeedElementHandler {
    struct Frame {
        enum Role {
            case root, container, entry, ignored, author, collecting, other
            /// RSS channel `image`, whose `url` is the feed's picture.
            case feedImage
            /// A child element inside rich text, written back as a tag (`nil`: the Atom xhtml wrapper `div`).
            case markup(tag: String?, isVoid: Bool)
        }
        var role: Role
        var pushedBase: Bool
        /// A void element (`<br>`) that turned out to be unclosed: the next end tag is its parent's.
        var implicitlyClosed = false
    }

    let limits: ParserLimits
    var context: xmlParserCtxtPtr?

    // `feed` and `entry` are large values: callbacks test the cheap `rootFormat` and
    // `entryFrameIndex` instead of comparing them with nil, which copied the whole value on
    // every element (5% of the parse profile).
    @exclusivity(unchecked) var feed: ParsedFeed?
    var rootFormat: FeedFormat?
    // Exclusivity checks are off for the two properties every callback touches: the handler
    // is driven by one libxml2 parse on one thread and never re-enters itself, and the checks
    // were ~8% of the parse profile on escaped-HTML feeds.
    @exclusivity(unchecked) var stack: [Frame] = []
    var baseChain: [String] = []
    @exclusivity(unchecked) var entry: ParsedEntry?
    /// Set exactly while `entry` is open.
    var entryFrameIndex: Int?
    var isInEntry: Bool { entryFrameIndex != nil }
    var publishedRank = Int.max
    var ignoredFrameIndex: Int?
    var authorFrameIndex: Int?
    var pendingAuthorName: String?
    var pendingAuthorEmail: String?
    var pendingAuthorURI: FeedLink?
    /// The open author element is an `itunes:author` with child elements.
    var pendingAuthorIsPodcast = false
    @exclusivity(unchecked) var collector: TextCollector?
    /// The document is an HTML page: elements are searched for a feed inside it.
    var sawHTMLRoot = false
    /// The document is Microsoft CDF (``startCDFRoot(attributes:pushedBase:)``).
    var isCDF = false
    var names = LocalNameCache()
    var namespaces = NamespaceCache()

    private(set) var stopError: FeedParseError?
    private(set) var errorCount = 0
    private(set) var diagnostics: [String] = []
    private var firstError: (line: Int, column: Int, message: String)?

    /// Receives each entry as soon as its element closes, with the feed as read so far (its
    /// format, and the authors Atom entries inherit, come before the entries).
    let deliver: (consuming ParsedEntry, ParsedFeed) -> Void

    init(limits: ParserLimits, deliver: @escaping (consuming ParsedEntry, ParsedFeed) -> Void) {
        self.limits = limits
        self.deliver = deliver
    }

    // MARK: - SAX callbacks

    func startElement(
        localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributes: SAXAttributes
    ) {
        guard stopError == nil else { return }
        guard stack.count < limits.maxDepth else {
            stop(.tooDeep(limit: limits.maxDepth, line: currentLine))
            return
        }
        let namespace = namespaces.namespace(uri: uri, prefix: prefix)
        let name = names.name(localName)
        if let top = stack.indices.last, case .markup(_, isVoid: true) = stack[top].role {
            stack[top].implicitlyClosed = true
        }
        let pushedBase = pushBase(attributes)
        guard rootFormat != nil else {
            startRoot(namespace: namespace, name: name, localName: localName, prefix: prefix, attributes: attributes, pushedBase: pushedBase)
            return
        }
        if collector != nil {
            if isEntryLevelElement(namespace: namespace, name: name) {
                recoverToEntryLevel()
            } else if endsFeedText(namespace: namespace, name: name) {
                recoverFromFeedText()
            } else if let frameIndex = collector?.frameIndex, stack.count == frameIndex + 1, collector?.capturesMarkup == false,
                collector?.field.isOneStringPerson == true
            {
                // `<author><name>…</name><email>…</email></author>` in RSS: read as Atom's, so the
                // children's texts do not run together.
                startPersonElements(frameIndex: frameIndex)
                startInAuthor(namespace: namespace, name: name, pushedBase: pushedBase)
                return
            } else {
                startInsideRichText(namespace: namespace, localName: localName, attributes: attributes, pushedBase: pushedBase)
                return
            }
        }
        if ignoredFrameIndex != nil {
            push(.other, pushedBase)
        } else if isCDF {
            startCDFElement(string(localName), attributes: attributes, pushedBase: pushedBase)
        } else if authorFrameIndex != nil {
            startInAuthor(namespace: namespace, name: name, pushedBase: pushedBase)
        } else if case .feedImage? = stack.last?.role {
            startInFeedImage(namespace: namespace, name: name, pushedBase: pushedBase)
        } else if !isFieldLevel, !isEntryStart(name) {
            // Only an entry's (or the feed's) own children are its fields: an `<id>` or
            // `<title>` inside an unknown or extension element belongs to that element.
            push(.other, pushedBase)
        } else if isInEntry {
            startInEntry(namespace: namespace, name: name, attributes: attributes, pushedBase: pushedBase)
        } else {
            startInFeed(namespace: namespace, name: name, attributes: attributes, pushedBase: pushedBase)
        }
    }

    func endElement() {
        guard stopError == nil else { return }
        while let top = stack.last, top.implicitlyClosed { popFrame() }
        if !stack.isEmpty { popFrame() }
    }

    func characters(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let frameIndex = collector?.frameIndex, stopError == nil else { return }
        let top = stack.count - 1
        if case .markup(_, isVoid: true) = stack[top].role {
            stack[top].implicitlyClosed = true
        }
        // Mutated in place through the optional: copying the collector out would copy its bytes.
        collector?.append(buffer, insideChildMarkup: top > frameIndex)
        if let collected = collector?.bytes.count, collected > limits.maxTextBytes {
            stop(.textTooLarge(element: collector?.elementName ?? "", limit: limits.maxTextBytes, line: currentLine))
        }
    }

    func recordError(line: Int, column: Int, message: String) {
        errorCount += 1
        if firstError == nil { firstError = (line, column, message) }
        if diagnostics.count < limits.maxDiagnostics {
            diagnostics.append("line \(line), column \(column): \(message)")
        }
    }

    /// The feed read, once the document has been fed in full; its entries were delivered.
    func finish() throws(FeedParseError) -> ParsedFeed {
        if let stopError { throw stopError }
        guard var result = feed else {
            if sawHTMLRoot { throw FeedParseError.notAFeed(found: "an HTML page") }
            let error = firstError ?? (1, 1, "no root element")
            throw FeedParseError.unreadable(line: error.line, column: error.column, reason: error.message)
        }
        if isInEntry {
            result.diagnostics.append("the document ended inside an entry (truncated?); that entry was dropped")
        }
        if errorCount > 0 {
            result.diagnostics.insert("recovered from \(errorCount) XML error(s)", at: 0)
            result.diagnostics.insert(contentsOf: diagnostics, at: 1)
        }
        return result
    }

    /// Whether the element now starting is a child of the feed, the channel, an entry, or a
    /// grouping element whose children count as the entry's own (`media:group`).
    private var isFieldLevel: Bool {
        switch stack.last?.role {
        case .root?, .container?, .entry?: return true
        default: return false
        }
    }

    private func isEntryStart(_ name: LocalName) -> Bool {
        name == .item || name == .entry
    }

    // MARK: - Stack

    func push(_ role: Frame.Role, _ pushedBase: Bool) {
        stack.append(Frame(role: role, pushedBase: pushedBase))
    }

    func collect(
        _ field: TextField, kind: FeedText.Kind = .text, capturesMarkup: Bool = false, base64: Bool = false, element: String,
        pushedBase: Bool
    ) {
        collector = TextCollector(
            field: field, frameIndex: stack.count, kind: kind, capturesMarkup: capturesMarkup && !base64, elementName: element)
        collector?.isBase64 = base64
        if case .category = field { collector?.keepsChildText = false }
        push(.collecting, pushedBase)
    }

    func popFrame() {
        let index = stack.count - 1
        let frame = stack[index]
        switch frame.role {
        case .collecting:
            if let finished = collector, finished.frameIndex == index {
                collector = nil
                apply(finished)
            }
        case .markup(let tag, let isVoid):
            if let tag, !isVoid { collector?.appendEndTag(tag) }
        case .entry:
            finishEntry()
        case .author:
            finishAuthor()
        case .ignored:
            ignoredFrameIndex = nil
        case .root, .container, .other, .feedImage:
            break
        }
        stack.removeLast()
        if frame.pushedBase { baseChain.removeLast() }
    }

    /// Pops back to the entry element (or the feed level) after an RSS element turned up
    /// inside what should have been closed rich text.
    private func recoverToEntryLevel() {
        let floor = (entryFrameIndex ?? 0) + 1
        while stack.count > floor { popFrame() }
    }

    /// An entry or a channel element starting inside the feed's own rich text (a channel
    /// `description` whose raw HTML left an element open): the text ends there, so the element
    /// is read for what it is and no entry is swallowed.
    private func endsFeedText(namespace: XMLNamespace, name: LocalName) -> Bool {
        guard !isInEntry, collector?.capturesMarkup == true else { return false }
        switch namespace {
        case .none, .rss, .atom, .atom03:
            return Self.channelLevelNames.contains(name)
        case .dc, .dcterms, .itunes, .sy, .media, .feedburner, .content:
            return true
        default:
            return false
        }
    }

    private static let channelLevelNames: Set<LocalName> = [
        .item, .entry, .channel, .title, .link, .description, .language, .image, .ttl, .category, .pubDate, .textInput,
        .textinput, .skipHours, .skipDays, .author, .updated, .id, .subtitle, .icon, .logo,
    ]

    private func recoverFromFeedText() {
        guard let floor = collector?.frameIndex else { return }
        while stack.count > floor { popFrame() }
    }

    private func pushBase(_ attributes: SAXAttributes) -> Bool {
        guard let base = attributes.value("base", in: .xml) else { return false }
        baseChain.append(base.trimmingCharacters(in: .whitespaces))
        return true
    }

    private func startInsideRichText(
        namespace: XMLNamespace, localName: UnsafePointer<xmlChar>, attributes: SAXAttributes, pushedBase: Bool
    ) {
        guard let active = collector, active.capturesMarkup else {
            push(.other, pushedBase)
            return
        }
        let tag = string(localName).lowercased()
        if active.kind == .xhtml, stack.count == active.frameIndex + 1, tag == "div", namespace == .xhtml {
            push(.markup(tag: nil, isVoid: false), pushedBase)
            return
        }
        let isVoid = voidHTMLElements.contains(tag)
        collector?.appendStartTag(tag, attributes: attributes.all(), selfClosing: isVoid)
        push(.markup(tag: tag, isVoid: isVoid), pushedBase)
    }

    func stop(_ error: FeedParseError) {
        stopError = error
        if let context { xmlStopParser(context) }
    }

    var currentLine: Int {
        Int(feedmill_xmlInputLine(context))
    }
}
