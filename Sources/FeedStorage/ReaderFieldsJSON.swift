import FeedModel

/// The one writer of `items.enclosures_json`, `categories_json` and `authors_json`.
///
/// Why canonical: the same entry must give the same bytes on every run and every machine,
/// so that an unchanged entry is not rewritten (its content hash covers these bytes), a
/// published file's content digest does not move, and a client can compare values as text.
/// So: no white space; keys in one fixed order; an absent value's key omitted, never `null`;
/// strings escaped only where JSON requires it (`"`, `\`, U+0000–U+001F, the last as the short
/// forms `\b \f \n \r \t` where JSON has one, else `\u00XX` in lowercase hex); `/` and all
/// non-ASCII written as they are (UTF-8). An empty list is `nil`: the column holds NULL, not `[]`.
/// `schemas/enclosures.schema.json`, `categories.schema.json` and `authors.schema.json` describe
/// the results; what they exclude is left out here too, whatever the entry holds, so that no
/// stored list fails them: a length below 1 byte (podcast feeds write 0 for "unknown"), a
/// negative duration, an empty type, a category without a term, a person with nothing to show.
enum ReaderFieldsJSON {
    /// `[{"url":…,"type":…,"length":…,"duration":…},…]` in document order.
    static func enclosures(_ enclosures: [Enclosure]) -> [UInt8]? {
        array(enclosures) { object, enclosure in
            object.string("url", enclosure.url)
            object.string("type", enclosure.type.flatMap { $0.isEmpty ? nil : $0 })
            object.integer("length", enclosure.length.flatMap { $0 >= 1 ? $0 : nil })
            object.integer("duration", enclosure.duration.flatMap { $0 >= 0 ? $0 : nil })
        }
    }

    /// `[{"term":…,"label":…,"scheme":…},…]` in document order.
    static func categories(_ categories: [EntryCategory]) -> [UInt8]? {
        array(categories, including: { !$0.term.isEmpty }) { object, category in
            object.string("term", category.term)
            object.string("label", category.label)
            object.string("scheme", category.scheme)
        }
    }

    /// `[{"name":…,"email":…,"uri":…},…]` in document order.
    static func authors(_ people: [Person]) -> [UInt8]? {
        array(people, including: { $0.name != nil || $0.email != nil || $0.uri != nil }) { object, person in
            object.string("name", person.name)
            object.string("email", person.email)
            object.string("uri", person.uri)
        }
    }

    /// `[` the included objects `,`-separated `]`, or `nil` for none. Filters as it goes, not
    /// with `filter`: a second array for every stored entry was a tenth of the storage
    /// benchmark's allocations.
    private static func array<Element>(
        _ elements: [Element], including: (Element) -> Bool = { _ in true }, _ write: (inout ObjectWriter, Element) -> Void
    ) -> [UInt8]? {
        guard elements.contains(where: including) else { return nil }
        var writer = ObjectWriter()
        writer.bytes.append(UInt8(ascii: "["))
        var count = 0
        for element in elements where including(element) {
            if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            count += 1
            writer.begin()
            write(&writer, element)
            writer.bytes.append(UInt8(ascii: "}"))
        }
        writer.bytes.append(UInt8(ascii: "]"))
        return writer.bytes
    }

    /// Appends one object's members, each after a `,` but the first.
    private struct ObjectWriter {
        var bytes: [UInt8] = []
        private var first = true

        init() { bytes.reserveCapacity(128) }

        mutating func begin() {
            bytes.append(UInt8(ascii: "{"))
            first = true
        }

        mutating func string(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            self.key(key)
            ReaderFieldsJSON.appendString(value, to: &bytes)
        }

        mutating func integer(_ key: StaticString, _ value: Int64?) {
            guard let value else { return }
            self.key(key)
            bytes.append(contentsOf: String(value).utf8)
        }

        private mutating func key(_ key: StaticString) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `"` + `text` escaped as JSON requires and no more + `"`.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
