import Foundation

/// Just enough XML for S3's answers (`ListBucketResult`, `Error`): the text of named elements,
/// entities decoded. S3 writes these documents flat and without CDATA, so a scan for
/// `<Name>...</Name>` reads them exactly; linking libxml2 into the publisher for two small,
/// fixed shapes was not worth it.
enum S3XML {
    /// The text of every `<name>` element, in order.
    static func texts(of name: String, in document: Substring) -> [String] {
        elements(name, in: document).map { decode($0) }
    }

    /// The text of the first `<name>` element.
    static func text(of name: String, in document: Substring) -> String? {
        elements(name, in: document).first.map { decode($0) }
    }

    /// The raw inner text of each `<name>...</name>`.
    static func elements(_ name: String, in document: Substring) -> [Substring] {
        let open = "<\(name)>", close = "</\(name)>"
        var found: [Substring] = []
        var rest = document
        while let start = rest.range(of: open) {
            guard let end = rest[start.upperBound...].range(of: close) else { break }
            found.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// `&lt; &gt; &amp; &quot; &apos;` and numeric references; anything else is kept as written.
    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var output = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let after = rest[ampersand...]
            guard let semicolon = after.firstIndex(of: ";"), after.distance(from: ampersand, to: semicolon) <= 10 else {
                output += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let name = after[after.index(after: ampersand)..<semicolon]
            if let replacement = entity(name) {
                output += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[rest.index(after: ampersand)...]
            }
        }
        return output + rest
    }

    private static func entity(_ name: Substring) -> String? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
