import TestSupport
import Testing

@testable import FeedNormalization

@Suite("sanitiser: tag soup, tokenized and closed")
struct SanitizerSoupTests {
    let sanitizer = HTMLSanitizer(baseURL: "https://e.com/posts/1")

    @Test("a < that starts no tag is text; a tag cut off by the end is dropped", arguments: [
        ("a < b", "a &lt; b"),
        ("I <3 feeds", "I &lt;3 feeds"),
        ("x <a href=\"/y", "x"),
        ("x <p title='unclosed>y", "x"),
        ("x </", "x &lt;/"),
        ("x </> y", "x  y"),
    ])
    func malformedTags(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test func everyElementAndAttributeIsFoundByNameInAnyCaseAndNoOtherNameIs() {
        func lookUp<T>(_ name: String, _ find: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            Array(name.utf8).withUnsafeBufferPointer(find)
        }
        for element in HTMLElement.allCases where element != .unknown {
            #expect(lookUp(element.rawValue, HTMLElement.named) == element)
            #expect(lookUp(element.rawValue.uppercased(), HTMLElement.named) == element)
            #expect(lookUp(element.rawValue + "x", HTMLElement.named) == .unknown)
        }
        for attribute in HTMLAttributeName.allCases {
            #expect(lookUp(attribute.rawValue, HTMLAttributeName.named) == attribute)
            #expect(lookUp(attribute.rawValue.uppercased(), HTMLAttributeName.named) == attribute)
            #expect(lookUp(String(attribute.rawValue.dropLast()), HTMLAttributeName.named) != attribute)
        }
        for name in ["", "unknown", "custom-tag", "scrip", "onclick", "style", "class", "a-very-long-element-name"] {
            #expect(lookUp(name, HTMLElement.named) == .unknown || name == "style", "\(name)")
            #expect(lookUp(name, HTMLAttributeName.named) == nil, "\(name)")
        }
    }

    @Test("character references", arguments: [
        ("&eacute;&#233;&#xE9;&#XE9", "éééé"),
        ("a&#0;b&#1;c&#xD800;d&#x110000;e", "abcde"),
        ("&bogus; &amp &AMP; fish&chips", "&amp;bogus; &amp; &amp; fish&amp;chips"),
        ("&lt;script&gt;", "&lt;script&gt;"),
        // 0x80-0x9F as browsers read them: windows-1252's characters, five numbers kept as written.
        ("1999&#150;2024 &#147;quoted&#148; &#x80;5 &#153;&#x9f;", "1999\u{2013}2024 \u{201C}quoted\u{201D} \u{20AC}5 \u{2122}\u{0178}"),
        ("&#129;&#141;", "\u{81}\u{8D}"),
    ])
    func references(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test func attributesAreDecodedFirstWinsAndUnquotedValuesEndAtSpace() {
        #expect(
            sanitizer.sanitize(html: "<a href=\"/q?a=1&amp;b=2\" href=\"/second\" title=x&quot;y class=c>t</a>")
                == "<a href=\"https://e.com/q?a=1&amp;b=2\" title=\"x&quot;y\">t</a>")
        #expect(sanitizer.sanitize(html: "<img\nSRC = 'p.png'\talt=\"a > b\">") == "<img src=\"https://e.com/posts/p.png\" alt=\"a &gt; b\">")
        #expect(sanitizer.sanitize(html: "<a/href='javascript:x'/onclick=y>z</a>") == "<a>z</a>")
    }

    @Test("raw-text elements hide markup until their own end tag", arguments: [
        ("<script>document.write('<b>x</b>')</script>after", "after"),
        ("<SCRIPT>a</script >b", "b"),
        ("<style>p{}</STYLE>c", "c"),
        ("<script>never closed <p>lost</p>", ""),
        ("<script>x</scripty></script>d", "d"),
        ("<title>t</title><p>e</p>", "<p>e</p>"),
        ("<xmp><b>shown</b></xmp>", "&lt;b&gt;shown&lt;/b&gt;"),
    ])
    func rawText(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("self-closed tags have no content, as XHTML writers meant", arguments: [
        ("safe<iframe src=\"https://e.com\" /> description", "safe description"),
        ("<div/>x", "<div></div>x"),
        ("<a name='top'/>text", "<a></a>text"),
        ("safe<embed src='x'> <b>kept</b>", "safe <b>kept</b>"),
        ("<svg/>after", "after"),
    ])
    func selfClosed(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("comments and declarations", arguments: [
        ("<!-- a -- b -->z", "z"),
        ("<!-->x", "x"),
        ("<!--->y", "y"),
        ("<!-- never closed <p>gone</p>", ""),
        ("<!DOCTYPE html><p>x", "<p>x</p>"),
        ("<?php echo 1 ?>t", "t"),
        ("<![CDATA[x]]>", "&lt;![CDATA[x]]&gt;"),
        ("<!DOCTYPE", "&lt;!DOCTYPE"),
    ])
    func comments(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("what a start tag closes, what an end tag may close", arguments: [
        ("<ul><li>a<li>b</ul>", "<ul><li>a</li><li>b</li></ul>"),
        ("<dl><dt>t<dd>d<dt>u</dl>", "<dl><dt>t</dt><dd>d</dd><dt>u</dt></dl>"),
        ("<table><tr><td>a<td>b<tr><td>c</table>", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"),
        ("<p>one<div>two</div>", "<p>one</p><div>two</div>"),
        ("<a href=/x>one<a href=/y>two", "<a href=\"https://e.com/x\">one</a><a href=\"https://e.com/y\">two</a>"),
        ("<h1>a<h2>b", "<h1>a</h1><h2>b</h2>"),
        ("<b><div>x</b>y</div>", "<b><div>xy</div></b>"),
        ("<td>a<b>b</td>c", "<td>a<b>b</b></td>c"),
        ("<p>a</p></div><p>b</p>", "<p>a</p><p>b</p>"),
        ("<em>a</strong>b</em>", "<em>ab</em>"),
        ("<object><object></object>in</object>out", "out"),
        ("<head><title>t</title></head><p>body</p>", "<p>body</p>"),
    ])
    func structure(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test func nestingIsBounded() {
        let output = sanitizer.sanitize(html: String(repeating: "<div>", count: 5_000) + "x")
        #expect(output.components(separatedBy: "<div>").count - 1 == SanitizedHTMLWriter.maximumDepth)
        #expect(output.components(separatedBy: "</div>").count - 1 == SanitizedHTMLWriter.maximumDepth)
    }

    /// Random tag soup from fragments chosen to break tokenizers: whatever the input, the
    /// output is allowlisted, balanced markup with safe URLs, and sanitising it again
    /// changes nothing.
    @Test func randomSoupComesOutSafeBalancedAndStable() {
        let fragments = [
            "<p>", "</p>", "<div>", "</div>", "<b>", "</b>", "<li>", "<ul>", "</ul>", "<table>", "<td>", "<tr>", "</table>",
            "<a href='javascript:alert(1)'>", "<a href=\"/ok?a=1&amp;b\">", "</a>", "<img src=x onerror=alert(1)>",
            "<img src='data:x'>", "<script>", "</script>", "<style>", "</style>", "<iframe>", "</iframe>", "<svg>",
            "</svg>", "<!--", "-->", "<!", "<?", "<", ">", "&", "&amp;", "&#0;", "&#x3c;", "&lt;", "\"", "'", "=", "/",
            " ", "\n", "text", "é", "<a title='", "<p title=\"\">", "<xmp>", "</xmp>", "<plaintext>", "<br/>", "<div/>",
            "<object>", "</object>", "<SCRIPT >", "</SCRIPT", "<a href=mailto:x@y>", "<img srcset='a 1x, javascript:b 2x'>",
            "<q cite=//evil.example/x>",
        ]
        var generator = SeededGenerator.announced()
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...24, using: &generator)
            let input = (0..<count).map { _ in fragments.randomElement(using: &generator)! }.joined()
            let output = sanitizer.sanitize(html: input)
            #expect(SanitizedOutputCheck.problem(in: output) == nil, "input: \(input)\noutput: \(output)")
            #expect(sanitizer.sanitize(html: output) == output, "input: \(input)")
        }
    }
}

/// An independent reading of sanitiser output: tags only from the allowlist, in the exact
/// form the writer uses, balanced; text and values fully escaped; URLs absolute http(s).
enum SanitizedOutputCheck {
    static func problem(in output: String) -> String? {
        var open: [String] = []
        var rest = Substring(output)
        while let next = rest.firstIndex(where: { $0 == "<" || $0 == ">" || $0 == "&" }) {
            let character = rest[next]
            rest = rest[next...]
            if character == ">" { return "a bare >" }
            if character == "&" {
                guard let entity = ["&amp;", "&lt;", "&gt;", "&quot;"].first(where: { rest.hasPrefix($0) }) else { return "a bare &" }
                rest = rest.dropFirst(entity.count)
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { return "an unclosed tag" }
            let tag = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") {
                guard open.popLast() == String(tag.dropFirst()) else { return "an unbalanced </\(tag.dropFirst())>" }
                continue
            }
            let parts = tag.split(separator: " ", maxSplits: 1)
            let name = String(parts[0])
            guard let element = HTMLElement(rawValue: name), element.role == .kept else { return "element \(name)" }
            if parts.count > 1, let problem = attributeProblem(String(parts[1])) { return problem }
            if !element.isVoid { open.append(name) }
        }
        return open.isEmpty ? nil : "left open: \(open)"
    }

    private static func attributeProblem(_ attributes: String) -> String? {
        var rest = Substring(attributes)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)] == "\"" else { return "attribute syntax" }
            let name = String(rest[..<equals])
            guard let attribute = HTMLAttributeName(rawValue: name) else { return "attribute \(name)" }
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let valueEnd = rest[valueStart...].firstIndex(of: "\"") else { return "unterminated value" }
            let value = rest[valueStart..<valueEnd]
            if value.contains("<") || value.contains(">") { return "unescaped value" }
            let urls = attribute == .srcset ? value.components(separatedBy: ", ").map { String($0.split(separator: " ")[0]) } : attribute.holdsURL ? [String(value)] : []
            for url in urls where !(url.hasPrefix("https://") || url.hasPrefix("http://") || (attribute == .href && url.hasPrefix("mailto:"))) {
                return "unsafe URL \(url)"
            }
            rest = rest[rest.index(after: valueEnd)...].drop(while: { $0 == " " })
        }
        return nil
    }
}
