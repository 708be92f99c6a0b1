import FeedBasics

/// The HTML elements Feedmill treats specially, and what each one means to the tokenizer
/// (raw text), to the sanitiser (kept, removed with its content, or unwrapped) and to the
/// plain-text reader (block elements read as a space). Every other name is ``unknown``.
enum HTMLElement: String, CaseIterable, Sendable {
    // Kept by the sanitiser.
    case a, abbr, acronym, address, article, aside, audio, b, bdi, bdo, big, blockquote, br, caption, center, cite
    case code, col, colgroup, dd, del, details, dfn, div, dl, dt, em, figcaption, figure, footer
    case h1, h2, h3, h4, h5, h6, header, hr, i, img, ins, kbd, li, mark, ol, p, picture, pre, q, rp, rt, ruby, s
    case samp, section, small, source, span, strike, strong, sub, summary, sup, table, tbody, td, tfoot, th, thead
    case time, tr, tt, u, ul, `var`, video, wbr
    // Removed with everything in them (an `iframe` of a known video player becomes a link:
    // ``VideoEmbed``).
    case script, style, iframe, frame, frameset, object, embed, applet, noscript, noframes, template, svg
    case form, input, button, select, textarea, option, title, meta, link, base
    // Kept as its text only (or its `alttext`), never as markup.
    case math
    // Read specially by the tokenizer only; `annotation`s are left out of a formula's text.
    case xmp, noembed, plaintext, annotation
    case annotationXML = "annotation-xml"
    case unknown

    enum Role {
        case kept, removedWithContent, unwrapped
        /// Its text is written, and none of the markup inside it (``SanitizedHTMLWriter``).
        case textOnly
    }

    var role: Role {
        switch self {
        case .script, .style, .iframe, .frame, .frameset, .object, .embed, .applet, .noscript, .noframes, .template,
            .svg, .form, .input, .button, .select, .textarea, .option, .title, .meta, .link, .base:
            return .removedWithContent
        case .math:
            return .textOnly
        case .xmp, .noembed, .plaintext, .annotation, .annotationXML, .unknown:
            return .unwrapped
        default:
            return .kept
        }
    }

    /// Elements with no content and no end tag.
    var isVoid: Bool {
        switch self {
        case .br, .col, .hr, .img, .source, .wbr, .frame, .embed, .input, .meta, .link, .base: return true
        default: return false
        }
    }

    /// How the tokenizer reads what follows the start tag: as markup, or as text up to the
    /// matching end tag (`<script>` can hold `<b>` without it being an element).
    enum Content {
        case markup
        /// Text up to the end tag, character references left as they are.
        case rawText
        /// Text up to the end tag, character references decoded (`title`, `textarea`).
        case escapableRawText
        /// Text to the end of the input: nothing closes `<plaintext>`.
        case plainText
    }

    var content: Content {
        switch self {
        case .script, .style, .iframe, .noembed, .noframes, .noscript, .xmp: return .rawText
        case .title, .textarea: return .escapableRawText
        case .plaintext: return .plainText
        default: return .markup
        }
    }

    /// Read as a line break by the plain-text reader: `<p>One</p><p>Two</p>` is "One Two".
    var isBlock: Bool {
        switch self {
        case .p, .div, .br, .li, .ul, .ol, .h1, .h2, .h3, .h4, .h5, .h6, .tr, .td, .th, .blockquote, .pre, .hr, .table,
            .section, .article:
            return true
        default:
            return false
        }
    }

    /// Elements whose start closes an open `<p>`, as in browsers (`<p>one<div>two` leaves
    /// the `div` outside the paragraph).
    var closesParagraph: Bool {
        switch self {
        case .address, .article, .aside, .blockquote, .center, .details, .div, .dl, .figcaption, .figure, .footer,
            .h1, .h2, .h3, .h4, .h5, .h6, .header, .hr, .ol, .p, .pre, .section, .summary, .table, .ul, .li, .dd, .dt:
            return true
        default:
            return false
        }
    }

    var isHeading: Bool {
        switch self {
        case .h1, .h2, .h3, .h4, .h5, .h6: return true
        default: return false
        }
    }

    /// An end tag does not close an element of a higher rank than its own: a stray `</b>`
    /// cannot close the `div` or table cell it sits in. (libxml2's end-tag priorities.)
    var endTagRank: Int {
        switch self {
        case .div: return 150
        case .td, .th: return 160
        case .tr: return 170
        case .thead, .tbody, .tfoot: return 180
        case .table: return 190
        default: return 100
        }
    }

    /// The element named by `name` (any case), or ``unknown``.
    static func named(_ name: UnsafeBufferPointer<UInt8>) -> HTMLElement {
        guard let key = HTMLNameKey(name) else { return .unknown }
        return byName[key] ?? .unknown
    }

    private static let byName = HTMLNameTable(allCases.filter { $0 != .unknown })
}

/// An ASCII name of up to 15 bytes, lowercased and packed into two integers: a hash key
/// built without allocating. Longer names are no element or attribute Feedmill knows.
struct HTMLNameKey: Equatable, Sendable {
    private var high: UInt64 = 0
    private var low: UInt64 = 0

    /// No name: `low` holds a name's length in its top byte, never 0.
    static let none = HTMLNameKey()

    private init() {}

    init?(_ name: UnsafeBufferPointer<UInt8>) {
        guard !name.isEmpty, name.count <= 15 else { return nil }
        for (index, byte) in name.enumerated() {
            let lowered = byte.asciiLowercased
            if index < 8 { high = high << 8 | UInt64(lowered) } else { low = low << 8 | UInt64(lowered) }
        }
        low |= UInt64(name.count) << 56
    }

    /// A multiplicative hash of the two integers, for ``HTMLNameTable``.
    var hash: UInt64 {
        (high &* 0x9E37_79B9_7F4A_7C15 ^ low) &* 0xC2B2_AE3D_27D4_EB4F
    }
}

/// The names of ``HTMLElement`` or ``HTMLAttributeName`` by their keys, in an open-addressed
/// table probed in order. Why not a `Dictionary`: every tag and attribute of every entry is
/// looked up, and a `Dictionary` key is hashed with seeded SipHash, which cost more than the
/// rest of reading the tag; the set of names is fixed, so a plain multiplicative hash will do.
struct HTMLNameTable<Name: RawRepresentable<String> & Sendable>: Sendable {
    /// 256 slots: more than twice the most names a table holds.
    private static var slotBits: Int { 8 }
    private var keys = [HTMLNameKey](repeating: .none, count: 1 << slotBits)
    private var names = [Name?](repeating: nil, count: 1 << slotBits)

    init(_ all: [Name]) {
        precondition(all.count <= keys.count / 2, "the table stays at most half full")
        for name in all {
            let bytes = Array(name.rawValue.utf8)
            guard let key = bytes.withUnsafeBufferPointer({ HTMLNameKey($0) }) else {
                preconditionFailure("\(name.rawValue) is a name the table can key")
            }
            var slot = Self.firstSlot(key)
            while keys[slot] != .none { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            names[slot] = name
        }
    }

    subscript(key: HTMLNameKey) -> Name? {
        var slot = Self.firstSlot(key)
        while true {
            if keys[slot] == key { return names[slot] }
            if keys[slot] == .none { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
    }

    private static func firstSlot(_ key: HTMLNameKey) -> Int {
        Int(truncatingIfNeeded: key.hash >> UInt64(64 - slotBits))
    }
}
