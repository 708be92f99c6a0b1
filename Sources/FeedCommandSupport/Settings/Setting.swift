import ArgumentParser

/// One value an operator can set without rebuilding, declared once: on the command line
/// (`--key`, typed by ArgumentParser), in the environment (`FEEDMILL_KEY`) or in the
/// configuration file (`key = …`), in that order of precedence, else its default.
///
/// `Value` is what the code reads (`Int`, ``Seconds``, `Bool`, an enum); a setting that may be
/// left unset has an optional `Value` and a `nil` default. The registry is ``Settings``.
public struct Setting<Value: Sendable>: AnySetting {
    /// The long option name and the configuration file key.
    public let key: String
    public let environment: String
    public let defaultValue: Value
    /// What an unset default means, as help says it ("all", "the system clock"): said once,
    /// in the "(default: …)" every option's help ends with, never again in the summary.
    public let unsetMeans: String?
    public let summary: String
    /// How `--help` names the value (`n`, `dir`, `duration`).
    public let valueName: String?
    /// `false` for settings that only make sense per invocation (`--now`).
    public let inFile: Bool
    public let type: SettingType<Value>

    init(
        _ key: String, environment: String? = nil, type: SettingType<Value>, default defaultValue: Value, valueName: String? = nil,
        inFile: Bool = true, unsetMeans: String? = nil, _ summary: String
    ) {
        self.key = key
        self.environment = environment ?? ("FEEDMILL_" + key.uppercased().replacingOccurrences(of: "-", with: "_"))
        self.type = type
        self.defaultValue = defaultValue
        self.unsetMeans = unsetMeans
        self.valueName = valueName
        self.inFile = inFile
        self.summary = summary
    }

    public var expected: String { type.expected }

    /// The default as the file would write it; `nil` when the setting is unset by default.
    public var defaultText: String? { type.write(defaultValue) }

    /// The default as people read it: the value the file would write, else what leaving it
    /// unset means.
    public var defaultDescription: String { defaultText ?? unsetMeans ?? "none" }

    /// How `--help` shows the setting's default and where else it can be set: the one place
    /// an option's help states its default.
    public var helpSuffix: String { " (default: \(defaultDescription); env \(environment))" }

    /// The option's help: the summary, the default and the environment variable.
    public var help: ArgumentHelp { ArgumentHelp(summary + helpSuffix, valueName: valueName) }

    /// Resolves this setting for one command, typed: a value given on the command line is
    /// already typed and only checked; text from the environment or the file is read by the
    /// setting's type. A bad value is kept as a problem naming where it came from.
    public func resolve(given: (any Sendable)?, layers: SettingLayers) -> ResolvedSetting {
        let source: SettingSource
        let value: Value
        if let given, let typed = given as? Value {
            source = .commandLine
            value = typed
        } else if let text = layers.environment[environment], !text.isEmpty {
            return read(text, from: .environment(environment))
        } else if inFile, let found = layers.fileEntry(key) {
            return read(found.entry.value, from: found.source)
        } else {
            value = defaultValue
            source = type.write(defaultValue) == nil ? .unset : .defaultValue
        }
        let text = type.write(value)
        return ResolvedSetting(
            setting: self, value: value, shown: .init(text: text, source: source),
            problem: type.problem(value).map { problem(text ?? "", from: source, expected: $0) })
    }

    private func read(_ text: String, from source: SettingSource) -> ResolvedSetting {
        let shown = ResolvedSettings.Shown(text: text, source: source)
        guard let value = type.read(text) else {
            return ResolvedSetting(setting: self, value: defaultValue, shown: shown, problem: problem(text, from: source, expected: expected))
        }
        return ResolvedSetting(setting: self, value: value, shown: shown, problem: type.problem(value).map { problem(text, from: source, expected: $0) })
    }

    private func problem(_ text: String, from source: SettingSource, expected: String) -> SettingsError {
        SettingsError(message: "\(key) = '\(text)' (from \(source)): expected \(expected)")
    }
}

/// A setting whatever its value's type: what the registry, `--print-config` and the generated
/// documentation need.
public protocol AnySetting: Sendable {
    var key: String { get }
    var environment: String { get }
    var summary: String { get }
    var inFile: Bool { get }
    /// What a value must be: "a whole number from 1 to 256".
    var expected: String { get }
    var defaultText: String? { get }
    /// ``defaultText``, or what leaving the setting unset means ("all"), or "none".
    var defaultDescription: String { get }
    /// What an unset default means, when it means more than "none".
    var unsetMeans: String? { get }
    func resolve(given: (any Sendable)?, layers: SettingLayers) -> ResolvedSetting
}
