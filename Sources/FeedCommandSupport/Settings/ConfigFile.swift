import Foundation

/// A Feedmill configuration file: TOML's `key = value` lines, with optional `[create]`,
/// `[update]`, `[publish]` and `[inspect]` sections whose keys apply to that command only.
///
/// The subset of TOML a flat configuration needs, read strictly so that a typo is an error
/// with its line rather than a setting silently ignored: `#` comments, bare keys, basic
/// strings (`"…"` with `\"`, `\\`, `\n`, `\t`, `\uXXXX`), literal strings (`'…'`), integers,
/// decimals and `true`/`false`. Arrays, inline tables and dotted keys are refused with a
/// message saying so.
public struct ConfigFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The value as text, whatever its TOML type: settings parse it as they parse a flag.
        public var value: String
        public var line: Int
    }

    public let path: String
    /// Top-level keys, under the empty section name, and each section's keys.
    public private(set) var sections: [String: [String: Entry]] = [:]

    public static let commandSections: Set<String> = ["create", "update", "publish", "inspect"]

    public init(path: String, text: String) throws(ConfigFileError) {
        self.path = path
        var section = ""
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = Self.strippingComment(String(rawLine)).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), !line.hasPrefix("[[") else {
                    throw ConfigFileError(path: path, line: number, message: "a section header is [name]")
                }
                let name = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                guard Self.commandSections.contains(name) else {
                    throw ConfigFileError(
                        path: path, line: number,
                        message: "unknown section [\(name)]; sections are " + Self.commandSections.sorted().map { "[\($0)]" }.joined(separator: ", "))
                }
                section = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigFileError(path: path, line: number, message: "expected key = value")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ConfigFileError(path: path, line: number, message: "'\(key)' is not a bare key (letters, digits, - and _)")
            }
            let value = try Self.value(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces), path: path, line: number)
            guard sections[section]?[key] == nil else {
                throw ConfigFileError(path: path, line: number, message: "'\(key)' is set twice")
            }
            sections[section, default: [:]][key] = Entry(value: value, line: number)
        }
    }

    /// A key's entry for a command: its section's, else the top level's.
    public func entry(_ key: String, command: String) -> Entry? {
        sections[command]?[key] ?? sections[""]?[key]
    }

    /// `#` starts a comment unless it is inside a string.
    private static func strippingComment(_ line: String) -> String {
        var quote: Character?
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" {
                return String(line[..<index])
            }
        }
        return line
    }

    private static func value(_ text: String, path: String, line: Int) throws(ConfigFileError) -> String {
        func fail(_ message: String) -> ConfigFileError { ConfigFileError(path: path, line: line, message: message) }
        guard let first = text.first else { throw fail("missing value after =") }
        switch first {
        case "\"":
            return try basicString(text, fail: fail)
        case "'":
            guard text.count >= 2, text.hasSuffix("'"), !text.dropFirst().dropLast().contains("'") else {
                throw fail("unterminated literal string")
            }
            return String(text.dropFirst().dropLast())
        case "[", "{":
            throw fail("arrays and inline tables are not used by any Feedmill setting")
        default:
            if text == "true" || text == "false" { return text }
            let plain = text.replacingOccurrences(of: "_", with: "")
            if Int(plain) != nil || (Double(plain) != nil && plain.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" })) {
                return plain
            }
            throw fail("'\(text)' is not a TOML value: quote strings (\"…\"); numbers and true/false are bare")
        }
    }

    private static func basicString(_ text: String, fail: (String) -> ConfigFileError) throws(ConfigFileError) -> String {
        var result = ""
        var iterator = text.dropFirst().makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\"":
                guard iterator.next() == nil else { throw fail("unexpected text after the closing quote") }
                return result
            case "\\":
                switch iterator.next() {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "u":
                    var hex = ""
                    for _ in 0..<4 { if let digit = iterator.next() { hex.append(digit) } }
                    guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
                    result.unicodeScalars.append(scalar)
                default:
                    throw fail("unsupported escape in a string")
                }
            default:
                result.append(character)
            }
        }
        throw fail("unterminated string")
    }
}

/// A configuration file that cannot be used, with the line to fix.
public struct ConfigFileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var path: String
    public var line: Int
    public var message: String

    public var description: String { "\(path):\(line): \(message)" }
}
