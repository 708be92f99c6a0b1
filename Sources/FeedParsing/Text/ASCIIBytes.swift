/// ASCII tests on bytes, for readers that work on UTF-8 without building strings.
extension UInt8 {
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D || self == 0x0C }
    var asciiLowercased: UInt8 { isASCIILetter ? self | 0x20 : self }
}
