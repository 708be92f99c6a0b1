import FeedBasics

/// Turns a feed's bytes into UTF-8 as they arrive, so a body never has to be held whole to
/// be decoded. Applies ``CharacterEncoding``'s rules, deciding each as soon as the bytes seen
/// settle it:
/// - The first ``headLength`` bytes are held until the byte-order mark, the XML declaration's
///   `encoding` and the BOM-less UTF-16 pattern can be read; a wide encoding is decided there.
/// - Otherwise bytes are ASCII-compatible, and read the same in every candidate encoding
///   until the first byte above 0x7F. There, the next ``sniffWindow`` bytes decide: valid
///   UTF-8 means UTF-8; UTF-8 mixed with no more stray bytes than sequences, under a label
///   of the windows-1252 family (or UTF-8, or none), means UTF-8 too (``MixedEncoding``);
///   anything else the label's encoding (or windows-1252).
/// - Once UTF-8 is decided, a later byte that is not valid UTF-8 is read as windows-1252 on
///   its own: a mixed document (a UTF-8 feed quoting a Latin-1 source) reads right in both
///   parts, where deciding for the whole document would garble one of them.
///
/// - Whatever the encoding, the characters XML 1.0 forbids (NUL, the other C0 controls but
///   tab, LF and CR, U+FFFE, U+FFFF) are removed from what it hands on (``XMLCharacters``):
///   libxml2 gives up on the element around a NUL, and with it on the rest of the document,
///   so one stray byte lost every entry after it; JSON does not allow them raw either. The
///   character goes, the entry and the rest of its text stay; a diagnostic counts them.
///
/// The result does not depend on how the bytes are cut into chunks (a property test checks it).
struct StreamingDecoder {
    static let headLength = 200
    static let sniffWindow = 4096

    private enum State {
        case head
        /// ASCII so far; the labels in precedence order, for when the bytes are not UTF-8.
        case sniffing(transport: String?, declared: String?)
        /// Decided UTF-8. Each ill-formed byte is read as windows-1252 (`lenient`), or each
        /// ill-formed sequence becomes U+FFFD (a UTF-8 byte-order mark: the writer said so).
        case utf8(lenient: Bool)
        case windows1252
        case converter(IconvConverter)
    }

    private let transportCharset: String?
    private var state = State.head
    /// Bytes received and not yet decoded: the head, a sequence cut by a chunk's end, a window.
    private var held: [UInt8] = []
    private var repairedBytes = 0
    private var removedCharacters = 0
    private(set) var name = "UTF-8"
    private var decisionNotes: [String] = []

    init(transportCharset: String?) {
        self.transportCharset = transportCharset
    }

    /// What was overridden or repaired, for a person reading diagnostics; complete once the
    /// last chunk is decoded.
    var notes: [String] {
        var notes = decisionNotes
        if repairedBytes > 0, case .utf8(let lenient) = state {
            notes.append(lenient
                ? "\(repairedBytes) byte(s) not valid UTF-8 in a UTF-8 document, read as windows-1252"
                : "invalid UTF-8 sequences replaced with U+FFFD")
        }
        if removedCharacters > 0 {
            notes.append("\(removedCharacters) character(s) XML does not allow (NUL, control characters, U+FFFE, U+FFFF) removed")
        }
        return notes
    }

    /// Appends the UTF-8 of `chunk` (and of any bytes held from before) to `output`, without
    /// the characters XML forbids. Only whole characters are ever appended, so the filter
    /// sees each one whole, wherever the chunks were cut.
    mutating func decode(_ chunk: UnsafeRawBufferPointer, isLast: Bool, into output: inout [UInt8]) {
        let start = output.count
        defer { removedCharacters += XMLCharacters.removeForbidden(from: &output, startingAt: start) }
        if held.isEmpty {
            let input = chunk.bindMemory(to: UInt8.self)
            let used = decode(input, isLast: isLast, into: &output)
            if used < input.count { held = Array(input[used...]) }
        } else {
            held.append(contentsOf: chunk)
            let used = held.withUnsafeBufferPointer { decode($0, isLast: isLast, into: &output) }
            held.removeFirst(used)
        }
    }

    /// Decodes what it can; returns how many bytes of `input` it used.
    private mutating func decode(_ input: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]) -> Int {
        guard let base = input.baseAddress else { return 0 }
        var used = 0
        while true {
            switch state {
            case .head:
                guard input.count >= Self.headLength || isLast else { return 0 }
                used = decideFromHead(input)
            case .sniffing(let transport, let declared):
                let nonASCII = UTF8Validation.endOfASCII(in: base, from: used, count: input.count)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[used..<nonASCII]))
                used = nonASCII
                guard used < input.count else { return used }
                let available = input.count - used
                guard available >= Self.sniffWindow || isLast else { return used }
                let window = UnsafeBufferPointer(start: base + used, count: min(available, Self.sniffWindow))
                let cutEnd = available > Self.sniffWindow || !isLast
                if UTF8Validation.isValid(window, allowingCutEnd: cutEnd) {
                    if let label = transport ?? declared, label != "UTF-8" {
                        decisionNotes.append("labelled \(label) but the bytes are valid UTF-8; read as UTF-8")
                    }
                    state = .utf8(lenient: true)
                } else if MixedEncoding.isMostlyUTF8(window, allowingCutEnd: cutEnd),
                    [transport, declared].allSatisfy({ MixedEncoding.mayBeMixed(label: $0) })
                {
                    let label = transport ?? declared ?? "no label"
                    decisionNotes.append("labelled \(label); UTF-8 mixed with single bytes that are not, read as UTF-8 with those bytes as windows-1252")
                    state = .utf8(lenient: true)
                } else {
                    decideLegacy(transport: transport, declared: declared)
                }
            case .utf8(let lenient):
                return used + decodeUTF8(UnsafeBufferPointer(rebasing: input[used...]), lenient: lenient, isLast: isLast, into: &output)
            case .windows1252:
                for byte in input[used...] {
                    if byte < 0x80 { output.append(byte) } else { UTF8Validation.append(scalar: Windows1252.scalar(for: byte), to: &output) }
                }
                return input.count
            case .converter(let converter):
                return used + converter.convert(UnsafeBufferPointer(rebasing: input[used...]), isLast: isLast, into: &output)
            }
        }
    }

    /// Byte-order mark, then a wide label or pattern, else sniffing; returns the bytes the
    /// mark took.
    private mutating func decideFromHead(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        let head = Array(input.prefix(Self.headLength))
        if let bom = ByteOrderMark(head) {
            if bom.encoding == "UTF-8" {
                state = .utf8(lenient: false)
            } else {
                startConverting(from: bom.encoding)
            }
            return bom.length
        }
        let transport = transportCharset.map(CharacterEncoding.canonicalName)
        let declared = CharacterEncoding.declaredEncoding(head).map(CharacterEncoding.canonicalName)
        // The bytes themselves (`<` or `<?` as UTF-16/32 writes them) say more than a label: a
        // label says neither byte order nor, for UTF-32, anything a declaration could carry.
        if let wide = CharacterEncoding.sniffBOMlessWideEncoding(head)
            ?? [transport, declared].compactMap({ $0 }).first(where: CharacterEncoding.isWideEncoding)
        {
            startConverting(from: wide)
        } else {
            state = .sniffing(transport: transport, declared: declared)
        }
        return 0
    }

    private mutating func startConverting(from encoding: String) {
        if let converter = IconvConverter(from: encoding) {
            (state, name) = (.converter(converter), encoding)
        } else {
            (state, name) = (.windows1252, "windows-1252")
            decisionNotes.append("cannot decode \(encoding); read as windows-1252")
        }
    }

    /// Not UTF-8: the first label the system can decode, else windows-1252.
    private mutating func decideLegacy(transport: String?, declared: String?) {
        for label in [transport, declared].compactMap({ $0 }) where label != "UTF-8" {
            if label == "windows-1252" {
                (state, name) = (.windows1252, label)
                return
            }
            if let converter = IconvConverter(from: label) {
                (state, name) = (.converter(converter), label)
                return
            }
        }
        let label = transport ?? declared ?? "UTF-8"
        (state, name) = (.windows1252, "windows-1252")
        decisionNotes.append("labelled \(label) but the bytes are not valid \(label); read as windows-1252")
    }

    /// Valid runs are copied as they are; returns the bytes used (a sequence cut by the end of a
    /// chunk that is not the last waits for the next).
    private mutating func decodeUTF8(
        _ input: UnsafeBufferPointer<UInt8>, lenient: Bool, isLast: Bool, into output: inout [UInt8]
    ) -> Int {
        guard let base = input.baseAddress else { return 0 }
        let count = input.count
        var runStart = 0
        var index = 0
        while true {
            index = UTF8Validation.endOfASCII(in: base, from: index, count: count)
            guard index < count else { break }
            let bad: Int
            switch UTF8Validation.sequence(in: base, at: index, count: count) {
            case .valid(let length):
                index += length
                continue
            case .incomplete where !isLast:
                output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                return index
            case .incomplete:
                bad = lenient ? 1 : count - index
            case .invalid(let length):
                bad = lenient ? 1 : length
            }
            output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
            UTF8Validation.append(scalar: lenient ? Windows1252.scalar(for: base[index]) : 0xFFFD, to: &output)
            repairedBytes += bad
            index += bad
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        return count
    }
}
