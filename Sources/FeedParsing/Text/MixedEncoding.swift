/// Whether a window of bytes that is not valid UTF-8 is still UTF-8 with stray single bytes:
/// a feed whose template (channel title, copyright) is Latin-1 while its items come from a
/// UTF-8 database. Read as windows-1252 throughout, every item's title became mojibake
/// (`CafÃ©`); read as UTF-8 with each stray byte as windows-1252, both parts read right.
///
/// A real windows-1252 text is told apart by proportion: each of its letters above 0x7F is a
/// byte that is not UTF-8, and a pair that happens to be well-formed UTF-8 (`ß` before a curly
/// quote) is the exception. So the window is taken as UTF-8 only when its well-formed
/// multi-byte sequences are at least as many as its stray bytes.
enum MixedEncoding {
    /// The labels under which the document may be read this way: those that would otherwise
    /// mean windows-1252 (ISO-8859-1, US-ASCII and their aliases), UTF-8, and none. A label
    /// naming another encoding (KOI8-R, Shift_JIS, ISO-8859-15) is taken at its word.
    static func mayBeMixed(label: String?) -> Bool {
        guard let label else { return true }
        return label == "UTF-8" || label == "windows-1252"
    }

    /// At least one well-formed multi-byte UTF-8 sequence, and no fewer of them than bytes that
    /// are not UTF-8. A sequence cut by the window's end counts as neither when `allowingCutEnd`.
    static func isMostlyUTF8(_ window: UnsafeBufferPointer<UInt8>, allowingCutEnd: Bool) -> Bool {
        guard let base = window.baseAddress else { return false }
        var sequences = 0
        var strays = 0
        var index = 0
        while true {
            index = UTF8Validation.endOfASCII(in: base, from: index, count: window.count)
            guard index < window.count else { break }
            switch UTF8Validation.sequence(in: base, at: index, count: window.count) {
            case .valid(let length):
                sequences += 1
                index += length
            case .incomplete where allowingCutEnd:
                index = window.count
            case .incomplete, .invalid:
                // Read as the UTF-8 decoder reads it in a mixed document: one byte at a time.
                strays += 1
                index += 1
            }
        }
        return sequences > 0 && sequences >= strays
    }
}
