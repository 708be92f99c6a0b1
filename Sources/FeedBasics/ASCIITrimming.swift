/// Trimming by ASCII rules: feed formats, HTTP headers and OPML attributes all trim ASCII
/// white space only, leaving non-breaking and other Unicode spaces alone (which Foundation's
/// `.whitespaces` would strip from a title that starts with one). Inlinable, so that callers in
/// other modules get them specialised for `String` and `Substring`.
extension Substring {
    /// Without leading and trailing ASCII white space (space, tab, CR, LF, form feed).
    @inlinable public func trimmingASCIIWhitespace() -> String {
        trimmingASCII { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
    }

    /// Without leading and trailing characters from `characters` (ASCII ones, such as `" \t\"'"`).
    @inlinable public func trimmingASCII(_ characters: String) -> String {
        let unwanted = Set(characters.unicodeScalars)
        return trimmingASCII { unwanted.contains($0) }
    }

    /// Concrete on `Substring`: the trimmed scalars are a `Substring.UnicodeScalarView`, which
    /// becomes a `String` by one copy of its UTF-8 (a generic scalar sequence would be rebuilt
    /// scalar by scalar, which once cost a fifth of the normalisation benchmark).
    @usableFromInline func trimmingASCII(where isUnwanted: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isUnwanted($0) }),
            let last = scalars.lastIndex(where: { !isUnwanted($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

extension String {
    /// Without leading and trailing ASCII white space (space, tab, CR, LF, form feed).
    @inlinable public func trimmingASCIIWhitespace() -> String {
        // Most values have nothing to trim: seen from both ends' bytes, without a copy.
        if let first = utf8.first, let last = utf8.last, !first.isASCIIWhitespace, !last.isASCIIWhitespace { return self }
        return self[...].trimmingASCIIWhitespace()
    }

    /// Without leading and trailing characters from `characters` (ASCII ones, such as `" \t\"'"`).
    @inlinable public func trimmingASCII(_ characters: String) -> String { self[...].trimmingASCII(characters) }
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
