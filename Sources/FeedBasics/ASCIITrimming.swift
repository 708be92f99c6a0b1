/// Trimming by ASCII rules: feed formats, HTTP headers and OPML attributes all trim ASCII
/// white space only, leaving non-breaking and other Unicode spaces alone (which Foundation's
/// `.whitespaces` would strip from a title that starts with one). Inlinable, so that callers in
/// other modules get them specialised for `String` and `Substring`.
extension StringProtocol {
    /// Without leading and trailing ASCII white space (space, tab, CR, LF, form feed).
    @inlinable public func trimmingASCIIWhitespace() -> String {
        trimmingASCII { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
    }

    /// Without leading and trailing characters from `characters` (ASCII ones, such as `" \t\"'"`).
    @inlinable public func trimmingASCII(_ characters: String) -> String {
        let unwanted = Set(characters.unicodeScalars)
        return trimmingASCII { unwanted.contains($0) }
    }

    @usableFromInline func trimmingASCII(where isUnwanted: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isUnwanted($0) }),
            let last = scalars.lastIndex(where: { !isUnwanted($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension ArraySlice<UInt8> {
    /// Without leading and trailing ASCII white space (space, tab, CR, LF, form feed).
    @inlinable public func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        guard let first = firstIndex(where: { !$0.isASCIIWhitespace }), let last = lastIndex(where: { !$0.isASCIIWhitespace }) else {
            return self[startIndex..<startIndex]
        }
        return self[first...last]
    }
}
