import Foundation

/// Where a setting's effective value came from, for `--print-config` and error messages.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case commandLine
    case environment(String)
    case file(path: String, line: Int, section: String)
    case defaultValue
    case unset

    public var description: String {
        switch self {
        case .commandLine: return "command line"
        case .environment(let name): return "environment \(name)"
        case .file(let path, let line, let section): return "\(path):\(line)" + (section.isEmpty ? "" : " [\(section)]")
        case .defaultValue: return "default"
        case .unset: return "not set"
        }
    }
}

/// A setting that cannot be used, naming where its value came from.
public struct SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// The effective settings of one command: command line over environment over configuration
/// file (its `[command]` section over its top level) over defaults.
public struct ResolvedSettings: Sendable {
    public struct Value: Sendable, Equatable {
        public var text: String?
        public var source: SettingSource

        public init(text: String?, source: SettingSource) {
            self.text = text
            self.source = source
        }
    }

    public let command: String
    public let settings: [Setting]
    public let configPath: String?
    public let configSource: SettingSource
    private let values: [String: Value]

    /// - Parameters:
    ///   - command: `create`, `update`, `publish` or `inspect`: the file section that applies.
    ///   - commandLine: the options given on the command line, by setting key.
    ///   - configFile: already read; its keys are checked against every known setting.
    public init(
        command: String, settings: [Setting], commandLine: [String: String], environment: [String: String],
        configFile: ConfigFile?, configSource: SettingSource = .unset
    ) throws(SettingsError) {
        self.command = command
        self.settings = settings
        self.configPath = configFile?.path
        self.configSource = configSource
        if let configFile {
            let known = Set(Setting.all.filter(\.inFile).map(\.key))
            for (section, entries) in configFile.sections {
                for (key, entry) in entries where !known.contains(key) {
                    let suggestion = known.min { Self.distance($0, key) < Self.distance($1, key) }
                    throw SettingsError(
                        message: "\(configFile.path)\(entry.line > 0 ? ":\(entry.line)" : "")\(section.isEmpty ? "" : " [\(section)]"): unknown setting '\(key)'"
                            + (suggestion.map { Self.distance($0, key) <= 3 ? " (did you mean '\($0)'?)" : "" } ?? ""))
                }
            }
        }
        var values: [String: Value] = [:]
        for setting in settings {
            if let given = commandLine[setting.key] {
                values[setting.key] = Value(text: given, source: .commandLine)
            } else if let name = setting.environment, let text = environment[name], !text.isEmpty {
                values[setting.key] = Value(text: text, source: .environment(name))
            } else if setting.inFile, let configFile, let entry = configFile.entry(setting.key, command: command) {
                let section = configFile.sections[command]?[setting.key] != nil ? command : ""
                values[setting.key] = Value(text: entry.value, source: .file(path: configFile.path, line: entry.line, section: section))
            } else if let fallback = setting.defaultValue {
                values[setting.key] = Value(text: fallback, source: .defaultValue)
            } else {
                values[setting.key] = Value(text: nil, source: .unset)
            }
        }
        self.values = values
    }

    public func value(_ setting: Setting) -> Value {
        values[setting.key] ?? Value(text: nil, source: .unset)
    }

    public func string(_ setting: Setting) -> String? { value(setting).text }

    /// A setting that has a default, so always a value.
    public func text(_ setting: Setting) -> String { value(setting).text ?? setting.defaultValue ?? "" }

    public func int(_ setting: Setting, in range: ClosedRange<Int>) throws(SettingsError) -> Int {
        guard let text = string(setting), let number = Int(text), range.contains(number) else {
            throw invalid(setting, "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    public func positiveDouble(_ setting: Setting) throws(SettingsError) -> Double {
        guard let text = string(setting), let number = Double(text), number > 0, number.isFinite else {
            throw invalid(setting, "a positive number")
        }
        return number
    }

    public func bool(_ setting: Setting) throws(SettingsError) -> Bool {
        switch string(setting)?.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off", nil: return false
        default: throw invalid(setting, "true or false")
        }
    }

    /// `90`, `90s`, `15m`, `1h`, `2d`; `nil` when unset.
    public func seconds(_ setting: Setting) throws(SettingsError) -> Int? {
        guard let text = string(setting) else { return nil }
        guard let seconds = Seconds(argument: text)?.value else {
            throw invalid(setting, "a duration such as 90s, 15m, 1h or 2d")
        }
        return seconds
    }

    /// The latest time `--now` may name: 9999-12-31T23:59:59Z, the last second a four-digit
    /// year can write. A clock past it is a typo or an attack, and stored as `last_update` it
    /// would sit in every feed's future.
    public static let latestEpochSecond: Int64 = 253_402_300_799

    /// Seconds since the epoch, from 1970 to the end of year 9999; `nil` when unset.
    public func epochSeconds(_ setting: Setting) throws(SettingsError) -> Int64? {
        guard let text = string(setting) else { return nil }
        guard let seconds = Int64(text), (0...Self.latestEpochSecond).contains(seconds) else {
            throw invalid(setting, "whole seconds since 1970-01-01 UTC, at most \(Self.latestEpochSecond) (9999-12-31T23:59:59Z)")
        }
        return seconds
    }

    public func choice(_ setting: Setting, _ choices: [String]) throws(SettingsError) -> String {
        guard let text = string(setting), choices.contains(text) else {
            throw invalid(setting, choices.joined(separator: " or "))
        }
        return text
    }

    public func invalid(_ setting: Setting, _ expected: String) -> SettingsError {
        let value = self.value(setting)
        return SettingsError(message: "\(setting.key) = '\(value.text ?? "")' (from \(value.source)): expected \(expected)")
    }

    /// The `--print-config` listing: every setting of the command, its value and its source.
    public func render() -> String {
        var lines = ["# rss-\(command): effective settings (command line > environment > file > default)"]
        lines.append("# configuration file: \(configPath ?? "none") (\(configSource))")
        let width = settings.map(\.key.count).max() ?? 0
        for setting in settings {
            let value = self.value(setting)
            let shown = value.text.map(Self.tomlValue) ?? "(unset)"
            lines.append(setting.key.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + shown + "  # \(value.source)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Numbers and booleans bare, everything else quoted: what the file would say.
    private static func tomlValue(_ text: String) -> String {
        if text == "true" || text == "false" || Int(text) != nil || (Double(text) != nil && !text.contains("n")) { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Edit distance, for "did you mean".
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Finds and reads the configuration file: `--config`, else `FEEDMILL_CONFIG`, else
/// `./feedmill.toml` when it exists. A file named explicitly must exist.
public enum ConfigFileLocator {
    public static let defaultName = "feedmill.toml"

    public static func load(
        commandLine path: String?, environment: [String: String]
    ) throws(SettingsError) -> (file: ConfigFile?, source: SettingSource) {
        let chosen: (path: String, source: SettingSource, required: Bool)
        if let path {
            chosen = (path, .commandLine, true)
        } else if let path = environment["FEEDMILL_CONFIG"], !path.isEmpty {
            chosen = (path, .environment("FEEDMILL_CONFIG"), true)
        } else {
            chosen = (defaultName, .defaultValue, false)
        }
        // A file that is there always counts: unreadable or not UTF-8 is an error, not "no file".
        guard chosen.required || FileManager.default.fileExists(atPath: chosen.path) else { return (nil, .unset) }
        guard let data = FileManager.default.contents(atPath: chosen.path) else {
            throw SettingsError(message: "configuration file \(chosen.path) (from \(chosen.source)) cannot be read")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw SettingsError(message: "configuration file \(chosen.path) (from \(chosen.source)) is not UTF-8 text")
        }
        do {
            return (try ConfigFile(path: chosen.path, text: text), chosen.source)
        } catch {
            throw SettingsError(message: error.description)
        }
    }
}
