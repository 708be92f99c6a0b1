/// ASCII tests on bytes, for readers that work on UTF-8 without building strings.
extension UInt8 {
    public var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    public var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
    public var isASCIILetterOrDigit: Bool { isASCIILetter || isASCIIDigit }
    /// Space, tab, LF, CR and form feed: the white space of XML, HTML and HTTP.
    public var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D || self == 0x0C }
    public var asciiLowercased: UInt8 { isASCIILetter ? self | 0x20 : self }
}
