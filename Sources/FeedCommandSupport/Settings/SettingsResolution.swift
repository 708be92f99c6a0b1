import Foundation

/// Where a setting's effective value came from, for `--print-config` and error messages.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case commandLine
    case environment(String)
    case file(path: String, line: Int, section: String)
    case defaultValue
    /// The configuration file found on the search path (``ConfigFileLocator``).
    case searchPath
    case unset

    public var description: String {
        switch self {
        case .commandLine: return "command line"
        case .environment(let name): return "environment \(name)"
        case .file(let path, let line, let section): return "\(path):\(line)" + (section.isEmpty ? "" : " [\(section)]")
        case .defaultValue: return "default"
        case .searchPath: return "search path"
        case .unset: return "not set"
        }
    }
}

/// A setting that cannot be used, naming where its value came from.
public struct SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    /// 64 for a value or a file that is wrong; 66 for a file named that is not there, 77 for
    /// one that may not be read.
    public var exitStatus: Int32

    public init(message: String, exitStatus: Int32 = ExitStatus.usage) {
        self.message = message
        self.exitStatus = exitStatus
    }

    public var description: String { message }
}

/// The layers under the command line, as one command sees them.
public struct SettingLayers: Sendable {
    public let command: CommandName
    public let environment: [String: String]
    public let configFile: ConfigFile?

    /// The key's entry in the command's section, else at the top level, and where it is.
    func fileEntry(_ key: String) -> (entry: ConfigFile.Entry, source: SettingSource)? {
        guard let configFile, let entry = configFile.entry(key, command: command.section) else { return nil }
        let section = configFile.sections[command.section]?[key] != nil ? command.section : ""
        return (entry, .file(path: configFile.path, line: entry.line, section: section))
    }
}

/// One setting resolved: its typed value, what `--print-config` shows, and what is wrong with it.
public struct ResolvedSetting: Sendable {
    public let setting: any AnySetting
    /// The setting's default when the value given was unusable (then `problem` says why).
    let value: any Sendable
    public let shown: ResolvedSettings.Shown
    public let problem: SettingsError?
}

/// The options a command line gave, typed as ArgumentParser parsed them, by setting.
public struct GivenSettings: Sendable {
    var values: [String: any Sendable] = [:]

    public init() {}

    /// An option of a setting that has a default; `nil`: not given.
    public mutating func add<Value>(_ setting: Setting<Value>, _ value: Value?) {
        if let value { values[setting.key] = value }
    }

    /// An option of a setting that may stay unset; `nil`: not given.
    public mutating func add<Value>(_ setting: Setting<Value?>, _ value: Value?) {
        if let value { values[setting.key] = Optional.some(value) }
    }

    public func merging(_ other: GivenSettings) -> GivenSettings {
        var merged = self
        merged.values.merge(other.values) { $1 }
        return merged
    }
}

/// The effective settings of one command, typed: command line over environment over
/// configuration file (its `[command]` section over its top level) over defaults.
public struct ResolvedSettings: Sendable {
    /// A value as `--print-config` shows it, and where it came from.
    public struct Shown: Sendable, Equatable {
        public var text: String?
        public var source: SettingSource

        public init(text: String?, source: SettingSource) {
            self.text = text
            self.source = source
        }
    }

    public let command: CommandName
    public let configPath: String?
    public let configSource: SettingSource
    /// Every place the configuration file was looked for, for `--print-config`.
    public let configSearch: [ConfigFileLocator.Candidate]
    /// In the command's order.
    public let resolved: [ResolvedSetting]
    private let index: [String: Int]

    /// - Parameters:
    ///   - settings: the command's; ``CommandName/settings`` unless a test narrows them.
    ///   - configFile: already read; its keys are checked against every known setting.
    public init(
        command: CommandName, settings: [any AnySetting]? = nil, given: GivenSettings = GivenSettings(), environment: [String: String],
        configFile: ConfigFile?, configSource: SettingSource = .unset, configSearch: [ConfigFileLocator.Candidate] = []
    ) throws(SettingsError) {
        self.command = command
        self.configPath = configFile?.path
        self.configSource = configSource
        self.configSearch = configSearch
        if let configFile { try Self.refuseUnknownKeys(configFile) }
        let layers = SettingLayers(command: command, environment: environment, configFile: configFile)
        resolved = (settings ?? command.settings).map { $0.resolve(given: given.values[$0.key], layers: layers) }
        index = Dictionary(resolved.enumerated().map { ($1.setting.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The typed value. Unusable values are refused by ``check()`` before a command works
    /// (``CommandContext/make(_:common:given:environment:console:)``); read before that, or
    /// for a setting the command does not take, it is the default.
    public subscript<Value>(_ setting: Setting<Value>) -> Value {
        guard let position = index[setting.key], let value = resolved[position].value as? Value else { return setting.defaultValue }
        return value
    }

    /// The typed value, or why it is unusable.
    public func value<Value>(_ setting: Setting<Value>) throws(SettingsError) -> Value {
        if let position = index[setting.key], let problem = resolved[position].problem { throw problem }
        return self[setting]
    }

    /// What `--print-config` shows for the setting, and where it came from.
    public func shown(_ setting: some AnySetting) -> Shown {
        index[setting.key].map { resolved[$0].shown } ?? Shown(text: nil, source: .unset)
    }

    /// A value its command found unusable after all, by a rule its type does not know:
    /// "key = 'text' (from where): expected …", as the type's own checks say it.
    public func invalid(_ setting: some AnySetting, expected: String) -> SettingsError {
        let shown = shown(setting)
        return SettingsError(message: "\(setting.key) = '\(shown.text ?? "")' (from \(shown.source)): expected \(expected)")
    }

    /// The first unusable value, in the command's order.
    public func check() throws(SettingsError) {
        if let problem = resolved.lazy.compactMap { $0.problem }.first { throw problem }
    }

    /// The `--print-config` listing: every setting of the command, its value and its source.
    public func render() -> String {
        var lines = ["# \(command.executable): effective settings (command line > environment > file > default)"]
        lines.append("# configuration file: \(configPath ?? "none") (\(configSource))")
        if !configSearch.isEmpty {
            lines.append("# looked for (first found wins):")
            for candidate in configSearch {
                let finding: String
                switch candidate.finding {
                case .used: finding = "used"
                case .notThere: finding = "not there"
                case .skipped: finding = candidate.path == ConfigFileLocator.noFileValue ? "no file read" : "not looked at"
                }
                lines.append("#   \(candidate.origin): \(candidate.path): \(finding)")
            }
        }
        let width = resolved.map { $0.setting.key.count }.max() ?? 0
        for entry in resolved {
            let shown = entry.shown.text.map(Self.tomlValue) ?? "(unset)"
            lines.append(entry.setting.key.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + shown + "  # \(entry.shown.source)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Numbers and booleans bare, everything else quoted: what the file would say.
    private static func tomlValue(_ text: String) -> String {
        if text == "true" || text == "false" || Int(text) != nil || (Double(text) != nil && !text.contains("n")) { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func refuseUnknownKeys(_ configFile: ConfigFile) throws(SettingsError) {
        let known = Set(Settings.all.filter { $0.inFile }.map { $0.key })
        for (section, entries) in configFile.sections {
            for (key, entry) in entries where !known.contains(key) {
                let suggestion = known.sorted().min { NearestName.distance($0, key) < NearestName.distance($1, key) }
                throw SettingsError(
                    message: "\(configFile.path)\(entry.line > 0 ? ":\(entry.line)" : "")\(section.isEmpty ? "" : " [\(section)]"): unknown setting '\(key)'"
                        + (suggestion.map { NearestName.distance($0, key) <= 3 ? " (did you mean '\($0)'?)" : "" } ?? ""))
            }
        }
    }
}
