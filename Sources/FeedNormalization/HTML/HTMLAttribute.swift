/// An attribute the sanitiser may keep, with its value's character references decoded.
/// Attributes with any other name are skipped by the tokenizer without being decoded.
struct HTMLAttribute {
    var name: HTMLAttributeName
    var value: String
}

/// The attributes the sanitiser reads: no `on*` handlers, no `style` or `class`. All are kept
/// except `id` and `name` (kept under the entry's prefix, `name` on `a` only, when the
/// sanitiser knows the entry: ``EntryAnchors``) and `alttext` (read from `math`, never kept).
enum HTMLAttributeName: String, CaseIterable, Sendable {
    case href, src, srcset, alt, title, width, height, colspan, rowspan, cite, datetime, lang, dir, poster, controls
    case start, reversed, abbr, scope, type, loop, muted, align, valign
    case id, name, alttext

    /// Attributes holding one URL, resolved and checked before they are kept.
    var holdsURL: Bool {
        switch self {
        case .href, .src, .cite, .poster: return true
        default: return false
        }
    }

    /// The attribute named by `name` (any case), or `nil` for one the sanitiser drops.
    static func named(_ name: UnsafeBufferPointer<UInt8>) -> HTMLAttributeName? {
        guard let key = HTMLNameKey(name) else { return nil }
        return byName[key]
    }

    private static let byName = HTMLNameTable(allCases)
}
