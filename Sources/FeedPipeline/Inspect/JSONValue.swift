/// A JSON value whose object keys keep the order they were given in, written the same way
/// byte for byte every time: what people diff and CI compares.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    public static func optional(_ value: Int64?) -> JSONValue {
        value.map(JSONValue.integer) ?? .null
    }

    /// Two-space indented JSON with a final newline; non-ASCII written as UTF-8, `/` unescaped.
    public func rendered() -> String {
        var output = ""
        write(to: &output, indent: 0)
        output += "\n"
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .integer(let value):
            output += String(value)
        case .string(let value):
            Self.writeString(value, to: &output)
        case .array(let values):
            writeContainer(values, open: "[", close: "]", to: &output, indent: indent) { value, output in
                value.write(to: &output, indent: indent + 1)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", to: &output, indent: indent) { member, output in
                Self.writeString(member.0, to: &output)
                output += ": "
                member.1.write(to: &output, indent: indent + 1)
            }
        }
    }

    /// One element per line, indented one level deeper than the brackets; empty as `[]`/`{}`.
    private func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String, indent: Int,
        writeElement: (Element, inout String) -> Void
    ) {
        guard !elements.isEmpty else {
            output += open + close
            return
        }
        output += open + "\n"
        for (index, element) in elements.enumerated() {
            output += String(repeating: "  ", count: indent + 1)
            writeElement(element, &output)
            output += index < elements.count - 1 ? ",\n" : "\n"
        }
        output += String(repeating: "  ", count: indent) + close
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
