import CLibXML2

/// XML's five predefined entities and HTML 4's named character references, taken from
/// libxml2's own HTML table: one table for the XML parser's lexical repair and the HTML
/// tokenizer, so a name means the same in a feed's XML and in an entry's HTML.
public enum NamedEntities {
    /// The scalar a name stands for, or `nil` for a name neither XML nor HTML defines.
    public static func scalar(for name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard name.count <= 8 else { return nil }
        let packed = key(name)
        // XML's own five first: most documents use nothing else, and never build the HTML table.
        switch packed {
        case amp: return 38
        case lt: return 60
        case gt: return 62
        case quot: return 34
        case apos: return 39
        default: return table[packed]
        }
    }

    private static let amp = key("amp".utf8)
    private static let lt = key("lt".utf8)
    private static let gt = key("gt".utf8)
    private static let quot = key("quot".utf8)
    private static let apos = key("apos".utf8)

    /// Up to eight ASCII bytes packed into one integer: a hash key with no allocation.
    private static func key<Bytes: Sequence>(_ name: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        name.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    }

    private static let table: [UInt64: UInt32] = {
        var table: [UInt64: UInt32] = [:]
        // libxml2 has no enumeration of its table, but it can be asked by value: HTML 4's
        // entities all lie below U+2667.
        for value in UInt32(0)...0x2666 {
            guard let entry = htmlEntityValueLookup(value), let cName = entry.pointee.name else { continue }
            let name = Array(String(cString: cName).utf8)
            if name.count <= 8 { table[key(name)] = entry.pointee.value }
        }
        for (name, value) in [("amp", 38), ("lt", 60), ("gt", 62), ("quot", 34), ("apos", 39)] {
            table[key(name.utf8)] = UInt32(value)
        }
        return table
    }()
}
