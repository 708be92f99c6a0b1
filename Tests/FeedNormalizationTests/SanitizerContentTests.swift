import Testing

@testable import FeedNormalization

@Suite("sanitiser: named references as browsers read them")
struct SanitizerEntityTests {
    let sanitizer = HTMLSanitizer(baseURL: "https://e.com/posts/1")

    @Test("in text: the WHATWG table, legacy names without ';', the longest match", arguments: [
        ("&check; &mldr; &colon; &bigstar;", "✓ … : ★"),
        ("&NotEqualTilde;", "\u{2242}\u{0338}"),
        ("&copy 2024 &amp me", "© 2024 &amp; me"),
        ("&copyright", "©right"),
        ("&notin; &notit; &not;in", "∉ ¬it; ¬in"),
        ("&check &bogus; &Coproduct; &COPY", "&amp;check &amp;bogus; ∐ ©"),
        ("&ampx &amp;x &lt3", "&amp;x &amp;x &lt;3"),
        ("&frac12 &frac12x", "½ ½x"),
        ("&lang;&rang;", "⟨⟩"),
        ("a&Tab;|&NewLine;|b", "a\t|\n|b"),
    ])
    func text(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("in attributes: a legacy name before '=' or a letter or digit stays as written", arguments: [
        ("?a=1&copy=2", "?a=1&amp;copy=2"),
        ("?a=1&copy;=2", "?a=1©=2"),
        ("?a&copyx", "?a&amp;copyx"),
        ("?a&copy 2", "?a© 2"),
        ("?a&copy", "?a©"),
        ("&amp;b=1&ampc", "&amp;b=1&amp;ampc"),
        ("&check;&check", "✓&amp;check"),
        ("&notit;", "&amp;notit;"),
        ("&not;it", "¬it"),
    ])
    func attribute(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: "<abbr title=\"\(input)\">x</abbr>") == "<abbr title=\"\(expected)\">x</abbr>")
    }

    @Test func plainTextTitlesUseTheSameTable() {
        #expect(PlainText.fromHTML("Tom &amp Jerry &check; &copy 2024&mldr;") == "Tom & Jerry ✓ © 2024…")
        #expect(PlainText.fromHTML("&notit; &NotEqualTilde;") == "¬it; \u{2242}\u{0338}")
    }
}

@Suite("sanitiser: an entry's anchors and links inside it")
struct SanitizerAnchorTests {
    let permalink = "https://e.com/posts/1"
    var sanitizer: HTMLSanitizer { HTMLSanitizer(baseURL: "https://e.com/", permalink: permalink, entryID: "a") }

    @Test func footnotesLinkToTheEntrysOwnPrefixedAnchors() {
        let html = ##"<p>x<sup id="ref1"><a href="#fn1">1</a></sup></p><ol><li id="fn1">note <a href=" #ref1">↩</a></li></ol>"##
        #expect(sanitizer.sanitize(html: html) == ##"<p>x<sup id="fm-ca978112-ref1"><a href="#fm-ca978112-fn1">1</a></sup></p><ol><li id="fm-ca978112-fn1">note <a href="#fm-ca978112-ref1">↩</a></li></ol>"##)
    }

    @Test func anAbsoluteLinkToTheEntrysPageWithAnAnchorItHoldsIsALinkInsideIt() {
        #expect(sanitizer.sanitize(html: ##"<a href="https://e.com/posts/1#n">x</a><a name="n"></a>"##)
            == ##"<a href="#fm-ca978112-n">x</a><a name="fm-ca978112-n"></a>"##)
    }

    @Test("a fragment the entry does not hold is a place on the entry's page", arguments: [
        (##"<a href="#comments">c</a>"##, ##"<a href="https://e.com/posts/1#comments">c</a>"##),
        (##"<a href="https://e.com/posts/1#more-42">m</a>"##, ##"<a href="https://e.com/posts/1#more-42">m</a>"##),
        (##"<a href="#">top</a>"##, ##"<a href="https://e.com/posts/1">top</a>"##),
        (##"<a href="/other#x">o</a><p id="x">"##, ##"<a href="https://e.com/other#x">o</a><p id="fm-ca978112-x"></p>"##),
    ])
    func unknownFragment(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test func twoEntriesOnOnePageGetDifferentAnchors() {
        let html = ##"<a href="#fn1">1</a><p id="fn1">n</p>"##
        let first = HTMLSanitizer(baseURL: nil, permalink: nil, entryID: "a").sanitize(html: html)
        let second = HTMLSanitizer(baseURL: nil, permalink: nil, entryID: "b").sanitize(html: html)
        #expect(first == ##"<a href="#fm-ca978112-fn1">1</a><p id="fm-ca978112-fn1">n</p>"##)
        #expect(second == ##"<a href="#fm-3e23e816-fn1">1</a><p id="fm-3e23e816-fn1">n</p>"##)
    }

    @Test func anEntryWithoutPermalinkKeepsItsFragmentsPrefixed() {
        let sanitizer = HTMLSanitizer(baseURL: "https://e.com/", permalink: nil, entryID: "a")
        #expect(sanitizer.sanitize(html: ##"<a href="#gone">g</a>"##) == ##"<a href="#fm-ca978112-gone">g</a>"##)
    }

    @Test("ids and names are prefixed, escaped, and never clobber a page's names", arguments: [
        (##"<img src="/p.png" name="getElementById" id="cookie">"##, ##"<img src="https://e.com/p.png" id="fm-ca978112-cookie">"##),
        (##"<p id="  ">x</p><p id='a"b'>y</p>"##, ##"<p>x</p><p id="fm-ca978112-a&quot;b">y</p>"##),
        (##"<a href="#a&quot;b">q</a><p id='a"b'>y</p>"##, ##"<a href="#fm-ca978112-a&quot;b">q</a><p id="fm-ca978112-a&quot;b">y</p>"##),
        (##"<math alttext="x"></math><p alttext="y">z</p>"##, "x<p>z</p>"),
    ])
    func anchors(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test func withoutTheEntryIdsAreDroppedAndFragmentsResolvedAgainstTheBase() {
        let sanitizer = HTMLSanitizer(baseURL: "https://e.com/posts/1")
        #expect(sanitizer.sanitize(html: ##"<a href="#n" name="n">x</a><p id="n">y</p>"##) == ##"<a href="https://e.com/posts/1#n">x</a><p>y</p>"##)
    }

    @Test func theNormaliserGivesTheEntrysPermalinkAndID() throws {
        let feed = try normalized("""
            <rss><channel><link>https://home.example/</link><item><link>https://home.example/posts/7</link><guid>tag:e.com,2024:1</guid>
            <description>&lt;a href="#fn1"&gt;1&lt;/a&gt; &lt;a href="#c"&gt;c&lt;/a&gt;&lt;p id="fn1"&gt;n&lt;/p&gt;</description></item></channel></rss>
            """)
        #expect(feed.entries.first?.summary == ##"<a href="#fm-dde9f67f-fn1">1</a> <a href="https://home.example/posts/7#c">c</a><p id="fm-dde9f67f-fn1">n</p>"##)
    }
}

@Suite("sanitiser: video players, formulas and images")
struct SanitizerMediaTests {
    let sanitizer = HTMLSanitizer(baseURL: "https://e.com/posts/1")

    @Test("a YouTube or Vimeo player becomes a link to the video; other frames go", arguments: [
        (##"<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="Talk"></iframe>"##,
         ##"<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"><img src="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" alt="Talk"></a>"##),
        (##"<IFRAME SRC="//youtube-nocookie.com/embed/dQw4w9WgXcQ?start=90&amp;rel=0"/>"##,
         ##"<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=90s"><img src="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" alt="YouTube video"></a>"##),
        (##"<iframe src="https://www.youtube.com/embed/videoseries?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG"></iframe>"##,
         ##"<a href="https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG">YouTube video</a>"##),
        (##"<iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e"></iframe>"##, ##"<a href="https://vimeo.com/76979871/8272103f6e">Vimeo video</a>"##),
        (##"<iframe src="https://player.vimeo.com/video/76979871" title="A &amp; B"></iframe>"##, ##"<a href="https://vimeo.com/76979871">A &amp; B</a>"##),
        (##"<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ&quot;onerror=x"></iframe>"##, ""),
        (##"<iframe src="https://youtube.com.evil.example/embed/dQw4w9WgXcQ"></iframe>"##, ""),
        (##"<iframe src="https://evil.example/?https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>"##, ""),
        (##"<iframe src="javascript://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>"##, ""),
        (##"<iframe src="https://vimeo.com/76979871"></iframe>"##, ""),
        (##"<a href="/x">in <iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>link</a>"##,
         ##"<a href="https://e.com/x">in </a><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"><img src="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" alt="YouTube video"></a>link"##),
    ])
    func video(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("MathML is kept as its text, or its alttext, never as markup", arguments: [
        (##"<math alttext="x^2"><msup><mi>x</mi><mn>2</mn></msup></math>"##, "x^2"),
        ("<math><mi>x</mi><mo>=</mo><mn>2</mn></math>", "x=2"),
        (##"<math><semantics><mi>a</mi><annotation encoding="TeX">\alpha</annotation><annotation-xml>b</annotation-xml></semantics></math>"##, "a"),
        (##"<math><mtext><img src=x onerror=alert(1)>t</mtext><style>s</style><script>alert(1)</script></math>u"##, "tu"),
        ("<math><math>a</math>b</math>c", "abc"),
        ("<p><math>a<b>unclosed", "<p>aunclosed</p>"),
        (##"<math alttext="a &lt; b"/>c"##, "a &lt; bc"),
    ])
    func math(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("an image dropped for its source leaves its alt text", arguments: [
        (##"<img src="data:image/png;base64,AAAA" alt="Chart">"##, "Chart"),
        (##"<p><img src="javascript:x" alt=" a &lt;b&gt; "></p>"##, "<p>a &lt;b&gt;</p>"),
        (##"<img alt="none">"##, "none"),
        (##"<img src="data:x">after"##, "after"),
        (##"<img src="p.png" alt="kept">"##, ##"<img src="https://e.com/posts/p.png" alt="kept">"##),
    ])
    func imageAlt(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }
}
