import FeedBasics
import FeedModel

/// Makes an entry's HTML safe for a client to display, and absolute.
///
/// The fragment is read by ``HTMLTokenizer`` and written back from an allowlist, by
/// ``SanitizedHTMLWriter``, which also closes what the input left open:
/// - Removed with their content: `script`, `style`, `iframe`, `frame(set)`, `object`,
///   `embed`, `applet`, `form` controls, `noscript`, `template`, `svg`, `math`, document-level
///   elements (`title`, `meta`, `link`, `base`), and comments. (`head` is unwrapped: what it
///   holds is removed by these rules, and an unclosed `<head>` must not swallow the entry.)
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
    /// unsafe ones dropped. `nil` for an `img` left without a source, which is dropped.
    func keptAttributes(of element: HTMLElement, _ attributes: [HTMLAttribute]) -> [HTMLAttribute]? {
        var kept: [HTMLAttribute] = []
        kept.reserveCapacity(attributes.count)
        for attribute in attributes {
            if attribute.name.holdsURL {
                guard let url = safeURL(attribute.value, allowMail: attribute.name == .href) else { continue }
                kept.append(HTMLAttribute(name: attribute.name, value: url))
            } else if attribute.name == .srcset {
                guard let srcset = safeSrcset(attribute.value) else { continue }
                kept.append(HTMLAttribute(name: .srcset, value: srcset))
            } else {
                kept.append(attribute)
            }
        }
        if element == .img, !kept.contains(where: { $0.name == .src }) { return nil }
        return kept
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
