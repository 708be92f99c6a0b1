import FeedBasics
import FeedModel

/// Makes an entry's HTML safe for a client to display, and absolute.
///
/// The fragment is read by ``HTMLTokenizer`` and written back from an allowlist, by
/// ``SanitizedHTMLWriter``, which also closes what the input left open
/// (docs/normalisation.md, "The sanitiser", says all of it with examples):
/// - Removed with their content: `script`, `style`, `iframe`, `frame(set)`, `object`,
///   `embed`, `applet`, `form` controls, `noscript`, `template`, `svg`, document-level
///   elements (`title`, `meta`, `link`, `base`), and comments. (`head` is unwrapped: what it
///   holds is removed by these rules, and an unclosed `<head>` must not swallow the entry.)
///   An `iframe` of a YouTube or Vimeo player becomes a link to the video (``VideoEmbed``).
/// - `math` is kept as its text (its `alttext` when it has one), never as markup.
/// - Unknown elements are unwrapped: their text stays, their tag goes.
/// - Attributes: only an allowlist (no `on*` event handlers, no `style` or `class`); `id`s
///   and `a`'s `name`s are kept under the entry's prefix (``EntryAnchors``) when the
///   sanitiser is given the entry's id.
/// - URLs in `href`, `src`, `cite`, `poster` and `srcset` are resolved against the entry's
///   base; any that is not `http`/`https` (or `mailto` for links) is dropped, which removes
///   `javascript:`, `vbscript:` and `data:` whatever their spelling. An image dropped that way
///   leaves its `alt` text. Links inside the entry (`#fn1`) go to its own anchors.
/// - Character references: the WHATWG table (``NamedEntities``), as browsers read it.
/// The output is deterministic: the same input always gives the same bytes.
public struct HTMLSanitizer: Sendable {
    /// Base for relative URLs; `nil` drops relative URLs, which cannot be made absolute.
    public var baseURL: String? {
        didSet { base = URLResolver.Base(baseURL) }
    }
    /// `baseURL` taken apart once for all the entry's links.
    private var base: URLResolver.Base?
    /// The entry's prefix for its `id`s and its page, for links inside it; `nil` when the
    /// entry is not known, and then `id`s and `name`s are dropped.
    let anchors: EntryAnchors?
    /// `anchors != nil`, asked of every link without touching the strings inside.
    private let keepsAnchors: Bool

    /// - Parameters:
    ///   - baseURL: the entry's base, for relative URLs.
    ///   - permalink: the entry's page, where links to a fragment the entry does not hold go.
    ///   - entryID: the entry's id, from which its anchors' prefix is made; without it,
    ///     `id` and `name` attributes are dropped.
    public init(baseURL: String?, permalink: String? = nil, entryID: String? = nil) {
        self.baseURL = baseURL
        base = URLResolver.Base(baseURL)
        anchors = entryID.map { EntryAnchors(entryID: $0, permalink: permalink) }
        keepsAnchors = entryID != nil
    }

    /// Takes the text: when the caller hands over the only copy, the input is freed once it
    /// is tokenised (for a megabyte entry, one megabyte less alive at the run's peak).
    public func sanitize(_ text: consuming FeedText) -> SafeHTML {
        switch text.kind {
        case .text:
            var output: [UInt8] = []
            Markup.appendEscaped(text.value.trimmingASCIIWhitespace(), to: &output, lineBreaks: true)
            return SafeHTML(validUTF8: output)
        case .html, .xhtml:
            let html = (consume text).utf8
            return sanitize(htmlUTF8: consume html)
        }
    }

    /// The text of `html` sanitised, for callers that hold and want a `String`.
    public func sanitize(html: String) -> String {
        sanitize(htmlUTF8: Array(html.utf8)).text
    }

    /// `html` is valid UTF-8 (a `String`'s, or a feed's text as the parser decoded it), so what
    /// is kept of it is valid UTF-8 too.
    private func sanitize(htmlUTF8 html: consuming [UInt8]) -> SafeHTML {
        guard html.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ">") }) else {
            return SafeHTML(validUTF8: Self.trimmed(html))
        }
        return SafeHTML(validUTF8: Self.trimmed(sanitizedBytes(consume html)))
    }

    /// `bytes` without white space at either end; not copied when there is none.
    private static func trimmed(_ bytes: consuming [UInt8]) -> [UInt8] {
        let kept = bytes[...].trimmingASCIIWhitespace()
        return kept.count == bytes.count ? bytes : Array(kept)
    }

    /// The sanitised HTML as bytes; `html` is gone when this returns.
    private func sanitizedBytes(_ html: consuming [UInt8]) -> [UInt8] {
        let trimmed = html[...].trimmingASCIIWhitespace()
        // Escaping can make the output a little longer than the input: room for that up front,
        // so a megabyte entry is not copied into a buffer twice its size.
        var writer = SanitizedHTMLWriter(sanitizer: self, capacity: trimmed.count + trimmed.count / 8 + 64)
        trimmed.withUnsafeBufferPointer { HTMLTokenizer.tokenize($0, into: &writer) }
        writer.closeAll()
        return writer.output
    }

    /// The attributes of a kept element as they are written: URLs resolved and checked,
    /// unsafe ones dropped, anchors prefixed (and added to `anchorsSeen`, unprefixed). A
    /// same-entry link comes back as `href="#x"` with `x` unprefixed: the writer decides its
    /// final form once it knows every anchor of the entry. `nil` for an `img` left without a
    /// source, which is dropped.
    func keptAttributes(of element: HTMLElement, _ attributes: [HTMLAttribute], anchorsSeen: inout AnchorsSeen) -> [HTMLAttribute]? {
        var kept: [HTMLAttribute] = []
        kept.reserveCapacity(attributes.count)
        for attribute in attributes {
            switch attribute.name {
            case .href where element == .a && keepsAnchors:
                guard let href = entryLink(attribute.value) else { continue }
                kept.append(HTMLAttribute(name: .href, value: href))
            case .href, .src, .cite, .poster:
                guard let url = safeURL(attribute.value, allowMail: attribute.name == .href) else { continue }
                kept.append(HTMLAttribute(name: attribute.name, value: url))
            case .srcset:
                guard let srcset = safeSrcset(attribute.value) else { continue }
                kept.append(HTMLAttribute(name: .srcset, value: srcset))
            case .id, .name:
                guard let anchors, attribute.name == .id || element == .a else { continue }
                let prefix = anchorsSeen.prefix(for: anchors)
                let anchor = EntryAnchors.unprefixed(Substring(attribute.value.trimmingASCIIWhitespace()), prefix: prefix)
                guard !anchor.isEmpty else { continue }
                anchorsSeen.names.insert(String(anchor))
                kept.append(HTMLAttribute(name: attribute.name, value: prefix + anchor))
            case .alttext:
                continue
            default:
                kept.append(attribute)
            }
        }
        if element == .img, !kept.contains(where: { $0.name == .src }) { return nil }
        return kept
    }

    /// An `a`'s `href` when the entry is known: `#x` (unprefixed, for the writer to finish)
    /// when it points inside the entry, the entry's page for a bare `#`, else the URL checked
    /// as any other; `nil` when it is dropped. A link without `#` (most) never reaches
    /// ``anchors``.
    private func entryLink(_ href: String) -> String? {
        let fragmentOnly = href.utf8.first(where: { $0 > 0x20 }) == UInt8(ascii: "#")
        if !fragmentOnly {
            guard let resolved = safeURL(href, allowMail: true) else { return nil }
            guard EntryAnchors.hasFragment(resolved), let fragment = anchors?.sameEntryFragment(raw: "", resolved: resolved) else {
                return resolved
            }
            return fragment.isEmpty ? resolved : "#" + fragment
        }
        guard let anchors, let fragment = anchors.sameEntryFragment(raw: href.trimmingASCIIWhitespace(), resolved: nil) else { return nil }
        if fragment.isEmpty { return anchors.page ?? safeURL(href, allowMail: false) }
        return "#" + fragment
    }

    /// The `iframe` whose attributes these are, as a link to its video, when it plays one.
    func videoEmbed(_ attributes: [HTMLAttribute]) -> VideoEmbed? {
        guard let src = attributes.first(where: { $0.name == .src }), let url = safeURL(src.value, allowMail: false) else { return nil }
        return VideoEmbed(src: url)
    }

    private func safeURL(_ value: String, allowMail: Bool) -> String? {
        // White space and control characters are dropped (`java\tscript:` is `javascript:`);
        // they are single UTF-8 bytes, so the bytes are filtered, and only when there are any.
        let dropped = { (byte: UInt8) in byte <= 0x20 || byte == 0x7F }
        var compact = value
        if compact.withUTF8({ $0.contains(where: dropped) }) {
            compact = String(decoding: value.utf8.filter { !dropped($0) }, as: UTF8.self)
        }
        if allowMail, compact.utf8.count >= 7, zip(compact.utf8, "mailto:".utf8).allSatisfy({ $0 | 0x20 == $1 }) {
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
