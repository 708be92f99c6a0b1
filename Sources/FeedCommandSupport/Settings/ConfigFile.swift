import Foundation
import TOMLKit

/// A Feedmill configuration file: TOML `key = value` pairs, with optional `[create]`,
/// `[update]`, `[publish]`, `[inspect]` and `[feeds]` tables whose keys apply to that command
/// only.
///
/// Parsed by TOMLKit (toml++, a maintained TOML 1.0 parser): CRLF line endings, a byte-order
/// mark, quoted keys and multi-line strings are all read as TOML says. Read strictly, so that
/// a file that was found always counts: a syntax error, an unknown table or a value of a type
/// no setting takes is an error with its line, never a file silently ignored.
public struct ConfigFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The value as text, whatever its TOML type: settings parse it as they parse a flag.
        public var value: String
        /// Where the key is written (0 when it cannot be told, as for a dotted key).
        public var line: Int
    }

    public let path: String
    /// Top-level keys, under the empty section name, and each section's keys.
    public private(set) var sections: [String: [String: Entry]] = [:]

    public static let commandSections = Set(CommandName.allCases.map(\.section))

    public init(path: String, text: String) throws(ConfigFileError) {
        self.path = path
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigFileError(path: path, line: error.source.begin.line, message: error.description)
        } catch {
            throw ConfigFileError(path: path, line: 0, message: "not a TOML document: \(error)")
        }
        let lines = KeyLines(text)
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            if value.type == .table, let section = value.table {
                guard Self.commandSections.contains(key) else {
                    throw ConfigFileError(
                        path: path, line: lines.line(ofSection: key),
                        message: "unknown section [\(key)]; sections are " + Self.commandSections.sorted().map { "[\($0)]" }.joined(separator: ", "))
                }
                for inner in section.keys.sorted() {
                    guard let innerValue = section[inner] else { continue }
                    let line = lines.line(of: inner, inSection: key)
                    sections[key, default: [:]][inner] = Entry(value: try Self.text(innerValue, key: inner, path: path, line: line), line: line)
                }
            } else {
                let line = lines.line(of: key, inSection: "")
                sections["", default: [:]][key] = Entry(value: try Self.text(value, key: key, path: path, line: line), line: line)
            }
        }
    }

    /// A key's entry for a command: its section's, else the top level's.
    public func entry(_ key: String, command: String) -> Entry? {
        sections[command]?[key] ?? sections[""]?[key]
    }

    /// Strings as they are, numbers and booleans as they would be typed on the command line.
    private static func text(_ value: any TOMLValueConvertible, key: String, path: String, line: Int) throws(ConfigFileError) -> String {
        switch value.type {
        case .string: return value.string ?? ""
        case .int: return value.int.map(String.init) ?? ""
        case .bool: return value.bool == true ? "true" : "false"
        case .double:
            let number = value.double ?? 0
            return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default:
            throw ConfigFileError(
                path: path, line: line, message: "'\(key)' is a TOML \(value.type); Feedmill settings are strings, numbers or true/false")
        }
    }
}

/// Where keys are written, for messages: TOMLKit gives positions for syntax errors only.
private struct KeyLines {
    /// Trimmed lines, with CRLF and CR treated as line ends like LF.
    let lines: [Substring]

    init(_ text: String) {
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            $0.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
        }
    }

    func line(ofSection name: String) -> Int {
        (lines.firstIndex { Self.sectionName($0) == name }).map { $0 + 1 } ?? 0
    }

    /// The first line in `section` (top level: before any header) that assigns `key`, bare or quoted.
    func line(of key: String, inSection section: String) -> Int {
        var current = ""
        for (index, line) in lines.enumerated() {
            if let name = Self.sectionName(line) {
                current = name
                continue
            }
            guard current == section else { continue }
            for written in [key, "\"\(key)\"", "'\(key)'"] where line.hasPrefix(written) {
                if line.dropFirst(written.count).drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("=") { return index + 1 }
            }
        }
        return 0
    }

    private static func sectionName(_ line: Substring) -> String? {
        guard line.hasPrefix("["), !line.hasPrefix("[["), let close = line.firstIndex(of: "]") else { return nil }
        return line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    }
}

/// A configuration file that cannot be used, with the line to fix.
public struct ConfigFileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var path: String
    public var line: Int
    public var message: String

    public var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}
