import FeedCommandSupport
import Foundation
import TestSupport
import Testing

/// Where the configuration file is found: `--config`, `FEEDMILL_CONFIG` (`none`: no file),
/// then the first of `./feedmill.toml`, the user's and `/etc/feedmill/feedmill.toml`.
@Suite("The configuration file's search path")
struct ConfigSearchPathTests {
    @Test func theSearchPathIsTheWorkingDirectoryThenTheUsersThenTheSystems() {
        #expect(ConfigFileLocator.searchPath(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/ann"]) == [
            "./feedmill.toml", "/x/conf/feedmill/feedmill.toml", "/etc/feedmill/feedmill.toml",
        ])
        // XDG_CONFIG_HOME unset or empty: ~/.config, as the XDG specification says.
        for environment in [["HOME": "/home/ann"], ["HOME": "/home/ann", "XDG_CONFIG_HOME": ""]] {
            #expect(ConfigFileLocator.searchPath(environment: environment) == [
                "./feedmill.toml", "/home/ann/.config/feedmill/feedmill.toml", ConfigFileLocator.systemPath,
            ])
        }
        #expect(ConfigFileLocator.searchPath(environment: [:]) == ["./feedmill.toml", "/etc/feedmill/feedmill.toml"])
    }

    @Test func theFirstFileFoundWinsAndTheOthersAreNotRead() throws {
        let home = try TemporaryDirectory()
        let user = home.url.path + "/feedmill/feedmill.toml"
        try FileManager.default.createDirectory(atPath: home.url.path + "/feedmill", withIntermediateDirectories: true)
        try Data("concurrency = 3\n".utf8).write(to: URL(fileURLWithPath: user))
        // The system's file "exists" too, with a key no setting has: it must not be read.
        let located = try ConfigFileLocator.load(
            commandLine: nil, environment: ["XDG_CONFIG_HOME": home.url.path],
            exists: { $0 == user || $0 == ConfigFileLocator.systemPath })
        #expect(located.file?.path == user)
        #expect(located.source == .searchPath)
        #expect(located.candidates.map(\.finding) == [.notThere, .used, .skipped])
        let settings = try ResolvedSettings(
            command: .update, environment: [:], configFile: located.file, configSource: located.source, configSearch: located.candidates)
        #expect(settings.shown(Settings.concurrency) == .init(text: "3", source: .file(path: user, line: 1, section: "")))
        let shown = settings.render()
        #expect(shown.contains("# configuration file: \(user) (search path)\n"), "\(shown)")
        #expect(shown.contains("#   search path: ./feedmill.toml: not there\n"))
        #expect(shown.contains("#   search path: \(user): used\n"))
        #expect(shown.contains("#   search path: /etc/feedmill/feedmill.toml: not looked at\n"))
    }

    @Test func nothingFoundMeansNoFileAndEveryPlaceIsSaid() throws {
        let located = try ConfigFileLocator.load(commandLine: nil, environment: ["HOME": "/nonexistent"], exists: { _ in false })
        #expect(located.file == nil && located.source == .unset)
        #expect(located.candidates.map(\.path) == ["./feedmill.toml", "/nonexistent/.config/feedmill/feedmill.toml", "/etc/feedmill/feedmill.toml"])
        #expect(located.candidates.allSatisfy { $0.finding == .notThere })
    }

    @Test func feedmillConfigNoneReadsNoFileAtAll() throws {
        let located = try ConfigFileLocator.load(commandLine: nil, environment: ["FEEDMILL_CONFIG": "none"], exists: { _ in true })
        #expect(located.file == nil)
        #expect(located.candidates.first == .init(origin: "FEEDMILL_CONFIG", path: "none", finding: .skipped))
        #expect(located.candidates.dropFirst().allSatisfy { $0.finding == .skipped })
        let settings = try ResolvedSettings(
            command: .update, environment: [:], configFile: nil, configSource: located.source, configSearch: located.candidates)
        #expect(settings.render().contains("#   FEEDMILL_CONFIG: none: no file read\n"), "\(settings.render())")
    }

    /// sysexits: a file named that is not there is missing input (66), not a usage error.
    @Test func aNamedFileThatIsNotThereIsMissingInput() throws {
        for (commandLine, environment, source) in [
            ("/nonexistent/feedmill.toml" as String?, [String: String](), "command line"),
            (nil, ["FEEDMILL_CONFIG": "/nonexistent/feedmill.toml"], "environment FEEDMILL_CONFIG"),
        ] {
            #expect(throws: SettingsError(
                message: "configuration file /nonexistent/feedmill.toml (from \(source)) does not exist", exitStatus: ExitStatus.noInput)
            ) {
                _ = try ConfigFileLocator.load(commandLine: commandLine, environment: environment)
            }
        }
    }
}
