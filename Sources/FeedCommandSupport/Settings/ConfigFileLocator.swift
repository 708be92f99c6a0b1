import FeedBasics
import Foundation

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
        return (try rethrowing(try ConfigFile(path: chosen.path, text: text), as: { (error: ConfigFileError) in SettingsError(message: error.description) }), chosen.source)
    }
}
