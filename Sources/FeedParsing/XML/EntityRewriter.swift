import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// Rewrites every entity reference in a UTF-8 XML document into a numeric character
/// reference before libxml2 sees it.
///
/// Why a pre-pass: feeds use HTML's named entities (`&nbsp;`, `&eacute;`) that XML does not
/// define, and bare `&`s. libxml2 in recover mode drops an undefined entity, and once a
/// document has had any well-formedness error it drops *every* named reference after it,
/// even `&lt;` — losing the markup of escaped HTML content. Numeric references are always
/// decoded, so after this pass none of that can happen. It also means the parser never
/// needs a document's DTD entities, which is what makes it safe (see ``XMLFeedParser``).
///
/// Rules, outside CDATA sections:
/// - `&amp; &lt; &gt; &quot; &apos;` and HTML 4's named entities become `&#N;`.
/// - A well-formed numeric reference stays; `&#128;`–`&#159;` are read as windows-1252, as
///   browsers do; a numeric reference missing its `;` gets one.
/// - Any other `&` (bare, or an unknown name) becomes `&#38;`, so the text shows what was written.
enum EntityRewriter {
    /// The rewritten document, or `nil` when nothing needed to change.
    static func rewrite(_ input: [UInt8]) -> [UInt8]? {
        input.withUnsafeBufferPointer { source -> [UInt8]? in
            guard let base = source.baseAddress, source.count > 0 else { return nil }
            var output: [UInt8] = []
            var copiedUpTo = 0
            var position = 0
            let count = source.count
            var nextCDATA = findCDATA(base, from: 0, count: count)
            while position < count {
                guard let ampersand = memchr(base + position, Int32(UInt8(ascii: "&")), count - position) else { break }
                let index = base.distance(to: ampersand.assumingMemoryBound(to: UInt8.self))
                if index > nextCDATA {
                    position = cdataEnd(base, from: nextCDATA, count: count)
                    nextCDATA = findCDATA(base, from: position, count: count)
                    continue
                }
                let reference = classify(base, at: index, count: count)
                if case .keep(let length) = reference {
                    position = index + length
                    continue
                }
                if output.isEmpty { output.reserveCapacity(count + count / 8 + 16) }
                output.append(contentsOf: UnsafeBufferPointer(start: base + copiedUpTo, count: index - copiedUpTo))
                switch reference {
                case .replace(let scalar, let length):
                    appendCharacterReference(scalar, to: &output)
                    position = index + length
                case .literalAmpersand:
                    output.append(contentsOf: Self.escapedAmpersand)
                    position = index + 1
                case .keep:
                    break
                }
                copiedUpTo = position
            }
            guard copiedUpTo > 0 else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(start: base + copiedUpTo, count: count - copiedUpTo))
            return output
        }
    }

    private enum Reference {
        case keep(length: Int)
        case replace(scalar: UInt32, length: Int)
        case literalAmpersand
    }

    private static let escapedAmpersand: [UInt8] = Array("&#38;".utf8)

    private static func classify(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Reference {
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
        guard let scalar = NamedEntities.scalar(for: name) else { return .literalAmpersand }
        return .replace(scalar: scalar, length: cursor + 1 - index)
    }

    private static func classifyNumeric(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Reference {
        var cursor = index + 2
        var hex = false
        if cursor < count, base[cursor] | 0x20 == UInt8(ascii: "x") {
            hex = true
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
        guard isXMLCharacter(value) else { return .replace(scalar: 0xFFFD, length: length) }
        return terminated ? .keep(length: length) : .replace(scalar: value, length: length)
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func appendCharacterReference(_ scalar: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "&"))
        output.append(UInt8(ascii: "#"))
        output.append(contentsOf: String(scalar).utf8)
        output.append(UInt8(ascii: ";"))
    }

    private static let cdataOpen: [UInt8] = Array("<![CDATA[".utf8)
    private static let cdataClose: [UInt8] = Array("]]>".utf8)

    /// Index of the next `<![CDATA[` at or after `from`, or `Int.max`.
    private static func findCDATA(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        find(cdataOpen, in: base, from: from, count: count) ?? Int.max
    }

    /// Index just after the `]]>` closing the section opened at `start`, or the end.
    private static func cdataEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        guard let close = find(cdataClose, in: base, from: start + cdataOpen.count, count: count) else { return count }
        return close + cdataClose.count
    }

    private static func find(_ needle: [UInt8], in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        guard from < count else { return nil }
        // memchr for the first byte, then compare the rest (glibc's memmem is not exported to Swift).
        var position = from
        let last = count - needle.count
        while position <= last {
            guard let hit = memchr(base + position, Int32(needle[0]), last + 1 - position) else { return nil }
            let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + index, needle, needle.count) == 0 { return index }
            position = index + 1
        }
        return nil
    }
}
