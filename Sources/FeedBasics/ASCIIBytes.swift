/// ASCII tests on bytes, for readers that work on UTF-8 without building strings. Inlinable:
/// the date readers and the lexical repair call them once per byte, from other modules.
extension UInt8 {
    @inlinable public var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    @inlinable public var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
    @inlinable public var isASCIILetterOrDigit: Bool { isASCIILetter || isASCIIDigit }
    /// Space, tab, LF, CR and form feed: the white space of XML, HTML and HTTP.
    @inlinable public var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D || self == 0x0C }
    @inlinable public var asciiLowercased: UInt8 { isASCIILetter ? self | 0x20 : self }
}
