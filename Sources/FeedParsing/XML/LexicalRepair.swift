import CLibXML2
import FeedBasics
#if canImport(Glibc)
import Glibc
#endif

/// Repairs a UTF-8 XML document lexically before libxml2 sees it: every entity reference
/// becomes a numeric character reference, and a `<` that cannot start markup becomes text.
///
/// Why a pre-pass: feeds use HTML's named entities (`&nbsp;`, `&eacute;`) that XML does not
/// define, and bare `&`s. libxml2 in recover mode drops an undefined entity, and once a
/// document has had any well-formedness error it drops *every* named reference after it,
/// even `&lt;` — losing the markup of escaped HTML content. Numeric references are always
/// decoded, so after this pass none of that can happen. It also means the parser never
/// needs a document's DTD entities, which is what makes it safe (see ``XMLFeedParser``).
///
/// Rules, outside CDATA sections and comments:
/// - `&amp; &lt; &gt; &quot; &apos;` and HTML 4's named entities become `&#N;`.
/// - A well-formed numeric reference stays; `&#128;`–`&#159;` are read as windows-1252, as
///   browsers do; a numeric reference missing its `;` gets one.
/// - A general entity the document declares in its own internal DTD subset
///   (`<!DOCTYPE rss [<!ENTITY id "tag:example.com,">]>`) is replaced by its value, when that
///   value is plain text (no markup; only numeric references). External entities are never
///   read, and all expansions together are bounded (``DeclaredEntities``).
/// - A numeric reference to a character XML forbids (`&#0;`, `&#xFFFE;`, a surrogate) is
///   removed, as the raw character is (``StreamingDecoder``) and as the sanitiser removes one
///   in escaped HTML: libxml2 would report it and drop it anyway.
/// - `&#X41;` (an uppercase X, which XML does not allow) is read as `&#x41;`.
/// - Any other `&` (bare, or an unknown name) becomes `&#38;`, so the text shows what was written.
/// - A `<` not followed by a name, `/`, `!` or `?` (`x < y`) becomes `&#60;`: libxml2's push
///   parser would otherwise stop there and lose the rest of the feed.
///
/// And one rule inside CDATA sections: a section is closed and reopened (`]]><![CDATA[`) every
/// 32 KiB of content, at a character boundary. The text is the same, but libxml2's push parser
/// holds an unterminated section in its input buffer until `]]>` arrives, so a 1 MB
/// `content:encoded` cost 2 MB of buffer; in pieces it is handed on as it arrives.
///
/// It runs on a document as it arrives, chunk by chunk; the result does not depend on where
/// the chunks are cut.
struct LexicalRepair {
    private var declared: DeclaredEntities
    /// Inside a CDATA section or a comment that an earlier chunk opened: its terminator.
    private var skippingTo: [UInt8]?
    /// Content bytes of the current CDATA section since it opened or was last split.
    private var cdataRun = 0

    /// CDATA content between two splits, at least: small enough that libxml2 finds a `]]>` in
    /// every 64 KiB slice ``XMLFeedParser`` gives it.
    static let cdataPiece = 32 * 1024

    /// Bytes after a `&` or `<` that decide what it is; one closer than this to the end of a
    /// chunk waits for the next chunk.
    static let lookahead = 40

    /// - Parameter declared: the entities the document's prolog declares.
    init(declared: DeclaredEntities) {
        self.declared = declared
    }

    /// The rewritten document, or `nil` when nothing needed to change.
    static func rewrite(_ input: [UInt8]) -> [UInt8]? {
        var repair = LexicalRepair(declared: DeclaredEntities(document: input))
        var output: [UInt8] = []
        let changed = input.withUnsafeBufferPointer { repair.repair($0, isLast: true, into: &output).changed }
        return changed ? output : nil
    }

    /// Repairs what it can of `input`. When `changed`, the repaired bytes were appended to
    /// `output`; otherwise `input`'s first `used` bytes need no change and nothing was appended.
    /// A reference or markup start too near the end of a chunk that is not the last is not
    /// used: it comes again at the start of the next.
    mutating func repair(
        _ source: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]
    ) -> (used: Int, changed: Bool) {
        guard let base = source.baseAddress, source.count > 0 else { return (0, false) }
        let count = source.count
        var copiedUpTo = 0
        var position = 0
        var changed = false
        var used = count
        func copy(upTo index: Int) {
            if !changed {
                changed = true
                output.reserveCapacity(output.count + count + count / 8 + 16)
            }
            output.append(contentsOf: UnsafeBufferPointer(start: base + copiedUpTo, count: index - copiedUpTo))
            copiedUpTo = index
        }
        /// Writes `replacement` in place of the `length` bytes at `index`.
        func rewrite(at index: Int, length: Int, _ replacement: (inout [UInt8]) -> Void) {
            copy(upTo: index)
            replacement(&output)
            position = index + length
            copiedUpTo = position
        }
        /// Passes CDATA content `start..<end`, splitting the section where its run reaches
        /// `cdataPiece`, at the next byte that starts a character.
        func passCDATA(from start: Int, to end: Int) {
            var start = start
            while start < end {
                var cut = max(start, start + Self.cdataPiece - cdataRun)
                while cut < end, base[cut] & 0xC0 == 0x80 { cut += 1 }
                guard cut < end else {
                    cdataRun += end - start
                    return
                }
                copy(upTo: cut)
                output.append(contentsOf: Self.cdataSplit)
                cdataRun = 0
                start = cut
            }
        }
        if let terminator = skippingTo {
            let inCDATA = terminator == Self.cdataClose
            if let end = Self.end(of: terminator, in: base, from: 0, count: count) {
                if inCDATA { passCDATA(from: 0, to: end - terminator.count) }
                skippingTo = nil
                position = end
            } else {
                used = isLast ? count : max(0, count - terminator.count + 1)
                if inCDATA { passCDATA(from: 0, to: used) }
                position = count
            }
        }
        var nextAmpersand = Self.find(UInt8(ascii: "&"), in: base, from: position, count: count)
        var nextLessThan = Self.find(UInt8(ascii: "<"), in: base, from: position, count: count)
        while position < count {
            if nextAmpersand < position { nextAmpersand = Self.find(UInt8(ascii: "&"), in: base, from: position, count: count) }
            if nextLessThan < position { nextLessThan = Self.find(UInt8(ascii: "<"), in: base, from: position, count: count) }
            let index = min(nextAmpersand, nextLessThan)
            guard index < count else { break }
            if !isLast, index + Self.lookahead > count {
                used = index
                break
            }
            let reference: Reference
            if index == nextLessThan {
                reference = classifyMarkup(base, at: index, count: count, isLast: isLast)
            } else {
                reference = Self.classify(base, at: index, count: count, declared: &declared)
            }
            switch reference {
            case .keep(let length):
                position = index + length
                if position >= count, skippingTo != nil {
                    // An unfinished section: hold back what could be the start of its terminator.
                    used = max(index + 1, count - (skippingTo?.count ?? 1) + 1)
                }
            case .cdata(let length, let terminated):
                let contentStart = index + Self.cdataOpen.count
                let contentEnd = terminated ? index + length - Self.cdataClose.count : (isLast ? count : count - Self.cdataClose.count + 1)
                cdataRun = 0
                passCDATA(from: contentStart, to: contentEnd)
                position = index + length
                if !terminated { used = contentEnd }
            case .replace(let scalar, let length):
                rewrite(at: index, length: length) { Self.appendCharacterReference(scalar, to: &$0) }
            case .remove(let length):
                rewrite(at: index, length: length) { _ in }
            case .literalAmpersand:
                rewrite(at: index, length: 1) { $0.append(contentsOf: Self.escapedAmpersand) }
            case .literalLessThan:
                rewrite(at: index, length: 1) { $0.append(contentsOf: Self.escapedLessThan) }
            case .expand(let value, let length):
                rewrite(at: index, length: length) { $0.append(contentsOf: value) }
            }
        }
        used = min(used, count)
        if changed {
            output.append(contentsOf: UnsafeBufferPointer(start: base + copiedUpTo, count: used - copiedUpTo))
        }
        return (used, changed)
    }

    /// A `<`: CDATA sections and comments are skipped whole; a `<` that cannot start markup
    /// (`x < y`, `<3`) becomes text, because libxml2's push parser stops at it.
    private mutating func classifyMarkup(_ base: UnsafePointer<UInt8>, at index: Int, count: Int, isLast: Bool) -> Reference {
        guard index + 1 < count else { return .literalLessThan }
        let next = base[index + 1]
        if next == UInt8(ascii: "!") {
            for (open, close) in [(Self.cdataOpen, Self.cdataClose), (Self.commentOpen, Self.commentClose)]
            where Self.starts(open, in: base, at: index, count: count) {
                let isCDATA = open == Self.cdataOpen
                guard let end = Self.end(of: close, in: base, from: index + open.count, count: count) else {
                    // Unfinished here: the rest of the chunk is inside it, and so is what follows
                    // until its terminator (at the end of the document: all of it).
                    if !isLast { skippingTo = close }
                    return isCDATA ? .cdata(length: count - index, terminated: false) : .keep(length: count - index)
                }
                return isCDATA ? .cdata(length: end - index, terminated: true) : .keep(length: end - index)
            }
            return .keep(length: 2)
        }
        if next.isASCIILetter || next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "_")
            || next == UInt8(ascii: ":") || next >= 0x80
        {
            return .keep(length: 1)
        }
        return .literalLessThan
    }

    private enum Reference {
        case keep(length: Int)
        /// A CDATA section from its `<![CDATA[`: its length in this chunk, and whether its
        /// `]]>` is in it.
        case cdata(length: Int, terminated: Bool)
        case replace(scalar: UInt32, length: Int)
        case remove(length: Int)
        case literalAmpersand
        case literalLessThan
        /// A document-declared entity: its value, and the reference's length.
        case expand(value: [UInt8], length: Int)
    }

    private static let escapedAmpersand: [UInt8] = Array("&#38;".utf8)
    private static let escapedLessThan: [UInt8] = Array("&#60;".utf8)

    private static func classify(
        _ base: UnsafePointer<UInt8>, at index: Int, count: Int, declared: inout DeclaredEntities
    ) -> Reference {
        var cursor = index + 1
        guard cursor < count else { return .literalAmpersand }
        if base[cursor] == UInt8(ascii: "#") {
            return classifyNumeric(base, at: index, count: count)
        }
        let nameStart = cursor
        while cursor < count, cursor - nameStart < 32, base[cursor].isASCIILetter || base[cursor].isASCIIDigit {
            cursor += 1
        }
        guard cursor > nameStart, cursor < count, base[cursor] == UInt8(ascii: ";"), base[nameStart].isASCIILetter else {
            return .literalAmpersand
        }
        let name = UnsafeBufferPointer(start: base + nameStart, count: cursor - nameStart)
        if !declared.isEmpty, let value = declared.expansion(of: Array(name)) {
            return .expand(value: value, length: cursor + 1 - index)
        }
        guard let scalar = NamedEntities.scalar(for: name) else { return .literalAmpersand }
        return .replace(scalar: scalar, length: cursor + 1 - index)
    }

    private static func classifyNumeric(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Reference {
        var cursor = index + 2
        var hex = false
        var upperX = false
        if cursor < count, base[cursor] | 0x20 == UInt8(ascii: "x") {
            hex = true
            upperX = base[cursor] == UInt8(ascii: "X")
            cursor += 1
        }
        let digitsStart = cursor
        var value: UInt32 = 0
        while cursor < count, cursor - digitsStart < 8 {
            let byte = base[cursor]
            let digit: UInt32
            if byte.isASCIIDigit {
                digit = UInt32(byte - 0x30)
            } else if hex, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "f") {
                digit = UInt32((byte | 0x20) - UInt8(ascii: "a") + 10)
            } else {
                break
            }
            value = value * (hex ? 16 : 10) + digit
            cursor += 1
        }
        guard cursor > digitsStart else { return .literalAmpersand }
        let terminated = cursor < count && base[cursor] == UInt8(ascii: ";")
        let length = cursor - index + (terminated ? 1 : 0)
        if (0x80...0x9F).contains(value) {
            return .replace(scalar: Windows1252.scalar(for: UInt8(value)), length: length)
        }
        guard let scalar = Unicode.Scalar(value), XMLCharacters.isAllowed(scalar) else { return .remove(length: length) }
        return terminated && !upperX ? .keep(length: length) : .replace(scalar: value, length: length)
    }

    private static func appendCharacterReference(_ scalar: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "&"))
        output.append(UInt8(ascii: "#"))
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var remaining = scalar
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            for index in stride(from: count - 1, through: 0, by: -1) { output.append(buffer[index]) }
        }
        output.append(UInt8(ascii: ";"))
    }

    private static let cdataOpen: [UInt8] = Array("<![CDATA[".utf8)
    private static let cdataClose: [UInt8] = Array("]]>".utf8)
    private static let cdataSplit: [UInt8] = Array("]]><![CDATA[".utf8)
    private static let commentOpen: [UInt8] = Array("<!--".utf8)
    private static let commentClose: [UInt8] = Array("-->".utf8)

    private static func starts(_ prefix: [UInt8], in base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Bool {
        index + prefix.count <= count && memcmp(base + index, prefix, prefix.count) == 0
    }

    /// Index just after the next `terminator` at or after `from`, if there is one.
    private static func end(of terminator: [UInt8], in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        var position = from
        let last = count - terminator.count
        while position <= last {
            let hit = find(terminator[0], in: base, from: position, count: last + 1)
            guard hit <= last else { break }
            if memcmp(base + hit, terminator, terminator.count) == 0 { return hit + terminator.count }
            position = hit + 1
        }
        return nil
    }

    /// Index of the next `byte` at or after `from`, or `count` when there is none.
    private static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        guard from < count, let hit = memchr(base + from, Int32(byte), count - from) else { return count }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
