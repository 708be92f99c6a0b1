import FeedBasics

/// The general entities a document declares in its internal DTD subset, for ``LexicalRepair``.
///
/// Only what is safe and meaningful is kept: internal entities (`<!ENTITY name "value">`)
/// whose value is plain text, with no markup and no references but numeric character
/// references. External entities (`SYSTEM`, `PUBLIC`), parameter entities (`%`) and values
/// that would need further expansion are ignored, so nothing is ever loaded and expansion
/// cannot recurse. All expansions of a document together may add at most
/// ``maximumExpansionBytes``; past that, references are left unexpanded (billion laughs
/// written out flat is still bounded).
struct DeclaredEntities {
    static let maximumExpansionBytes = 1 << 20

    private var values: [[UInt8]: [UInt8]] = [:]
    private var expanded = 0

    var isEmpty: Bool { values.isEmpty }

    /// None: what a document without an internal subset declares.
    init() {}

    init(document: [UInt8]) {
        guard case .subset(let subset) = Self.scanProlog(document) else { return }
        var index = subset.startIndex
        let keyword = Array("<!ENTITY".utf8)
        while let start = Self.find(keyword, in: subset, from: index) {
            index = start + keyword.count
            var cursor = Self.skipSpaces(subset, from: index)
            guard cursor < subset.endIndex, subset[cursor] != UInt8(ascii: "%") else { continue }
            let nameStart = cursor
            while cursor < subset.endIndex, Self.isNameByte(subset[cursor]) { cursor += 1 }
            let name = Array(subset[nameStart..<cursor])
            cursor = Self.skipSpaces(subset, from: cursor)
            guard !name.isEmpty, cursor < subset.endIndex else { continue }
            let quote = subset[cursor]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                let close = subset[(cursor + 1)...].firstIndex(of: quote)
            else { continue }
            let value = Array(subset[(cursor + 1)..<close])
            index = close + 1
            // XML: the first declaration of a name binds; the five predefined ones cannot change.
            guard values[name] == nil, !Self.predefined.contains(name), Self.isPlainText(value) else { continue }
            values[name] = value
        }
    }

    /// The value to put in place of `&name;`, while the expansion budget lasts.
    mutating func expansion(of name: [UInt8]) -> [UInt8]? {
        guard let value = values[name], expanded + value.count <= Self.maximumExpansionBytes else { return nil }
        expanded += value.count
        return value
    }

    private static let predefined: Set<[UInt8]> = Set(["amp", "lt", "gt", "quot", "apos"].map { Array($0.utf8) })

    /// What the prolog (the XML declaration, comments, processing instructions, a doctype)
    /// holds, as far as the bytes so far tell.
    enum Prolog {
        /// The bytes end inside the prolog: more are needed to know.
        case incomplete
        case noInternalSubset
        /// `[ … ]` of a `<!DOCTYPE` that comes before the root element.
        case subset(ArraySlice<UInt8>)
    }

    /// The scan stops at the first element, a few bytes into nearly every feed.
    static func scanProlog(_ document: [UInt8]) -> Prolog {
        let doctype = Array("<!DOCTYPE".utf8)
        var index = 0
        while let lessThan = document[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard lessThan + 1 < document.count else { return .incomplete }
            let next = document[lessThan + 1]
            if next == UInt8(ascii: "?") || document[lessThan...].starts(with: Array("<!--".utf8)) {
                // Skip a processing instruction or a comment whole.
                let close: [UInt8] = next == UInt8(ascii: "?") ? Array("?>".utf8) : Array("-->".utf8)
                guard let end = find(close, in: document[...], from: lessThan + 2) else { return .incomplete }
                index = end + close.count
                continue
            }
            guard document.count - lessThan >= doctype.count else { return .incomplete }
            guard document[lessThan...].starts(with: doctype) else { return .noInternalSubset }
            guard let open = document[lessThan...].firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ">") }) else {
                return .incomplete
            }
            guard document[open] == UInt8(ascii: "[") else { return .noInternalSubset }
            guard let close = find(Array("]".utf8), in: document[...], from: open + 1) else { return .incomplete }
            return .subset(document[(open + 1)..<close])
        }
        return .incomplete
    }

    /// No markup and no references other than numeric character references.
    private static func isPlainText(_ value: [UInt8]) -> Bool {
        guard !value.contains(UInt8(ascii: "<")), !value.contains(UInt8(ascii: "%")) else { return false }
        var index = 0
        while index < value.count {
            if value[index] == UInt8(ascii: "&") {
                guard index + 1 < value.count, value[index + 1] == UInt8(ascii: "#"),
                    let semicolon = value[index...].firstIndex(of: UInt8(ascii: ";"))
                else { return false }
                index = semicolon
            }
            index += 1
        }
        return true
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func skipSpaces(_ bytes: ArraySlice<UInt8>, from index: Int) -> Int {
        var cursor = index
        while cursor < bytes.endIndex, bytes[cursor].isASCIIWhitespace { cursor += 1 }
        return cursor
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>, from: Int) -> Int? {
        guard let first = needle.first, from <= haystack.endIndex else { return nil }
        var index = from
        while let hit = haystack[index...].firstIndex(of: first) {
            if haystack[hit...].starts(with: needle) { return hit }
            index = hit + 1
        }
        return nil
    }
}
