import FeedCommandSupport
import Foundation
import Testing

@Suite("Settings: command line over environment over file over defaults")
struct SettingsTests {
    let file = try! ConfigFile(path: "/etc/feedmill.toml", text: """
        # Feedmill
        data-dir = "/var/lib/feedmill"   # where the databases live
        concurrency = 8
        timeout = 30
        contact = 'mailto:ops@example.org'

        [update]
        concurrency = 24
        stale-after = "2h"
        """)

    private func resolve(
        commandLine: GivenSettings = GivenSettings(), environment: [String: String] = [:], file: ConfigFile? = nil, command: CommandName = .update
    ) throws -> ResolvedSettings {
        try ResolvedSettings(
            command: command,
            settings: [Settings.dataDirectory, Settings.concurrency, Settings.perHost, Settings.timeout, Settings.contact, Settings.staleAfter, Settings.deadline],
            given: commandLine, environment: environment, configFile: file)
    }

    private func timeout(_ seconds: Double) -> GivenSettings {
        var given = GivenSettings()
        given.add(Settings.timeout, seconds)
        return given
    }

    @Test func eachLayerOverridesTheOneBelow() throws {
        let settings = try resolve(
            commandLine: timeout(5), environment: ["FEEDMILL_TIMEOUT": "10", "FEEDMILL_PER_HOST": "4", "FEEDMILL_CONCURRENCY": "2"],
            file: file)
        #expect(settings.shown(Settings.timeout) == .init(text: "5", source: .commandLine))
        #expect(settings.shown(Settings.concurrency) == .init(text: "2", source: .environment("FEEDMILL_CONCURRENCY")))
        #expect(settings.shown(Settings.perHost) == .init(text: "4", source: .environment("FEEDMILL_PER_HOST")))
        #expect(settings.shown(Settings.dataDirectory) == .init(text: "/var/lib/feedmill", source: .file(path: "/etc/feedmill.toml", line: 2, section: "")))
        #expect(settings.shown(Settings.staleAfter) == .init(text: "2h", source: .file(path: "/etc/feedmill.toml", line: 9, section: "update")))
        #expect(settings.shown(Settings.deadline) == .init(text: nil, source: .unset))
        #expect(try settings.value(Settings.staleAfter) == Seconds(7200))
        #expect(try settings.value(Settings.timeout) == 5)
        #expect(try settings.value(Settings.concurrency) == 2 && settings[Settings.perHost] == 4 && settings[Settings.deadline] == nil)
    }

    @Test func aCommandSectionAppliesToThatCommandOnly() throws {
        #expect(try resolve(file: file, command: .update).value(Settings.concurrency) == 24)
        #expect(try resolve(file: file, command: .create).value(Settings.concurrency) == 8)
        #expect(try resolve(command: .create).shown(Settings.concurrency) == .init(text: "16", source: .defaultValue))
        #expect(try resolve(command: .create)[Settings.concurrency] == 16)
    }

    @Test func printConfigNamesEveryValueAndItsSource() throws {
        let text = try resolve(environment: ["FEEDMILL_PER_HOST": "4"], file: file).render()
        #expect(text.contains("concurrency = 24  # /etc/feedmill.toml:8 [update]"))
        #expect(text.contains("per-host    = 4  # environment FEEDMILL_PER_HOST"))
        #expect(text.contains("data-dir    = \"/var/lib/feedmill\"  # /etc/feedmill.toml:2"))
        #expect(text.contains("deadline    = (unset)  # not set"))
    }

    @Test func badValuesSayWhereTheyCameFrom() throws {
        let settings = try resolve(environment: ["FEEDMILL_CONCURRENCY": "many"], file: file)
        #expect(throws: SettingsError(message: "concurrency = 'many' (from environment FEEDMILL_CONCURRENCY): expected a whole number from 1 to 256")) {
            try settings.value(Settings.concurrency)
        }
        #expect(throws: SettingsError(message: "concurrency = 'many' (from environment FEEDMILL_CONCURRENCY): expected a whole number from 1 to 256")) {
            try settings.check()
        }
        let fromFile = try resolve(file: try ConfigFile(path: "f.toml", text: "stale-after = \"soon\""))
        #expect(throws: SettingsError(message: "stale-after = 'soon' (from f.toml:1): expected a duration such as 90s, 15m, 1h or 2d, at most 3650d (10 years)")) {
            try fromFile.value(Settings.staleAfter)
        }
    }

    @Test func anUnknownKeyIsAnErrorWithASuggestion() throws {
        let typo = try ConfigFile(path: "f.toml", text: "concurency = 8\n")
        #expect(throws: SettingsError(message: "f.toml:1: unknown setting 'concurency' (did you mean 'concurrency'?)")) {
            try resolve(file: typo)
        }
    }

    /// Syntax errors are toml++'s own words, with the line; the rest are Feedmill's.
    @Test("the configuration file is read strictly", arguments: [
        ("concurrency 8", "f.toml:1: Error while parsing key-value pair: expected '='"),
        ("[udpate]", "f.toml:1: unknown section [udpate]; sections are [create], [feeds], [inspect], [publish], [serve], [update]"),
        ("data-dir = /srv", "f.toml:1: Error while parsing value"),
        ("data-dir = \"/srv", "f.toml:1: Error while parsing string"),
        ("timeout = 5\ntimeout = 6", "f.toml:2: "),
        ("hosts = [1, 2]", "f.toml:1: 'hosts' is a TOML array; Feedmill settings are strings, numbers or true/false"),
        ("[update]\r\nwhen = 1979-05-27", "f.toml:2: 'when' is a TOML date"),
    ])
    func strictFile(text: String, message: String) {
        #expect(throws: ConfigFileError.self) { try ConfigFile(path: "f.toml", text: text) }
        do {
            _ = try ConfigFile(path: "f.toml", text: text)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    /// Valid TOML the hand-written reader refused or, with CRLF, silently ignored.
    @Test func crlfLineEndingsAByteOrderMarkQuotedKeysAndMultiLineStringsAreTOML() throws {
        let text = "\u{FEFF}# Feedmill\r\n\"concurrency\" = 8\r\ntitle = \"\"\"\r\nMorning\r\nnews\"\"\"\r\n[update]\r\n'stale-after' = \"2h\"\r\n"
        let parsed = try ConfigFile(path: "f.toml", text: text)
        #expect(parsed.entry("concurrency", command: "update").map { [$0.value, "\($0.line)"] } == ["8", "2"])
        #expect(parsed.entry("title", command: "publish")?.value == "Morning\nnews", "TOML lets a parser normalise newlines")
        #expect(parsed.entry("stale-after", command: "update").map { [$0.value, "\($0.line)"] } == ["2h", "7"])
        let resolved = try resolve(file: parsed)
        #expect(try resolved.value(Settings.concurrency) == 8)
        #expect(resolved.shown(Settings.concurrency).source == .file(path: "f.toml", line: 2, section: ""))
    }

    @Test func tomlValuesAreReadAsTOMLSaysThey() throws {
        let parsed = try ConfigFile(path: "f.toml", text: """
            title = "Caf\\u00e9 \\"news\\"" # comment with "quotes"
            site-url = 'https://example.org/#top'
            deltas = 1_0
            allow-private-networks = true
            """)
        #expect(parsed.entry("title", command: "publish")?.value == "Café \"news\"")
        #expect(parsed.entry("site-url", command: "publish")?.value == "https://example.org/#top")
        #expect(parsed.entry("deltas", command: "publish")?.value == "10")
        #expect(parsed.entry("allow-private-networks", command: "update")?.value == "true")
    }

    /// The example operators copy must itself be valid, for every command.
    @Test func theExampleConfigurationIsValid() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../contrib/feedmill.toml").standardized.path
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let file = try ConfigFile(path: path, text: text)
        for command in CommandName.allCases {
            let settings = try ResolvedSettings(command: command, settings: Settings.all, environment: [:], configFile: file)
            try settings.check()
            #expect(try settings.value(Settings.concurrency) == 16)
            #expect(try settings.value(Settings.allowPrivateNetworks) == false)
            #expect(try settings.value(Settings.staleAfter) == Seconds(3600))
            #expect(try settings.value(Settings.deadline) == (command == .update ? Seconds(840) : nil))
        }
        // Every key a file may set is in the example, so the example documents them all.
        for setting in Settings.all where setting.inFile && setting.defaultText != nil {
            #expect(text.contains("\n\(setting.key) = "), "\(setting.key) is documented")
        }
    }
}

@Suite("Settings: typed at the edge, checked wherever they come from")
struct TypedSettingsTests {
    @Test func aTypedCommandLineValueIsCheckedAsTheOtherLayersAre() throws {
        var given = GivenSettings()
        given.add(Settings.concurrency, 300)
        given.add(Settings.deadline, Seconds(90))
        let settings = try ResolvedSettings(
            command: .update, given: given, environment: ["FEEDMILL_CONCURRENCY": "8"], configFile: nil)
        #expect(throws: SettingsError(message: "concurrency = '300' (from command line): expected a whole number from 1 to 256")) {
            try settings.check()
        }
        #expect(settings[Settings.deadline] == Seconds(90))
        #expect(settings.shown(Settings.deadline) == .init(text: "90s", source: .commandLine))
    }

    @Test func aSettingLeftUnsetOnTheCommandLineFallsToTheLayersBelow() throws {
        var given = GivenSettings()
        given.add(Settings.keepItems, nil)
        given.add(Settings.proxy, nil)
        let settings = try ResolvedSettings(
            command: .update, given: given, environment: ["FEEDMILL_KEEP_ITEMS": "40"], configFile: nil)
        #expect(settings[Settings.keepItems] == 40)
        #expect(settings.shown(Settings.keepItems).source == .environment("FEEDMILL_KEEP_ITEMS"))
        #expect(settings.shown(Settings.proxy) == .init(text: nil, source: .unset))
    }

    @Test func aDurationTooLongForAnIntegerIsRefusedNotATrap() throws {
        #expect(Seconds(argument: "2d")?.value == 172_800)
        #expect(Seconds(argument: "999999999999999999d") == nil)
        let settings = try ResolvedSettings(command: .update, environment: ["FEEDMILL_STALE_AFTER": "999999999999999999d"], configFile: nil)
        #expect(throws: SettingsError(
            message: "stale-after = '999999999999999999d' (from environment FEEDMILL_STALE_AFTER): expected a duration such as 90s, 15m, 1h or 2d, at most 3650d (10 years)")) {
            try settings.check()
        }
    }

    @Test func aDurationLongerThanTenYearsIsRefusedWhereverItComesFrom() throws {
        let longest = try ResolvedSettings(
            command: .update, environment: ["FEEDMILL_STALE_AFTER": "3650d", "FEEDMILL_DEADLINE": "315360000s"], configFile: nil)
        try longest.check()
        #expect(longest[Settings.staleAfter] == Seconds.longest && longest[Settings.deadline] == Seconds.longest)
        for (variable, key) in [("FEEDMILL_STALE_AFTER", "stale-after"), ("FEEDMILL_DEADLINE", "deadline")] {
            let settings = try ResolvedSettings(command: .update, environment: [variable: "9223372036854775807s"], configFile: nil)
            #expect(throws: SettingsError(
                message: "\(key) = '9223372036854775807s' (from environment \(variable)): expected a duration such as 90s, 15m, 1h or 2d, at most 3650d (10 years)")) {
                try settings.check()
            }
        }
        let fromFile = try ResolvedSettings(command: .update, environment: [:], configFile: try ConfigFile(path: "f.toml", text: "deadline = \"3651d\""))
        #expect(throws: SettingsError(message: "deadline = '3651d' (from f.toml:1): expected a duration such as 90s, 15m, 1h or 2d, at most 3650d (10 years)")) {
            try fromFile.check()
        }
    }

    @Test func theSettingsTableHasOneRowPerSettingNamingItsCommands() {
        let rows = SettingsReference.markdown().split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst()
        #expect(rows.count == Settings.all.count)
        #expect(rows.contains {
            $0.hasPrefix("| stale-after | rss-update, rss-feeds | `stale-after`, top level or `[update]`, `[feeds]` | `FEEDMILL_STALE_AFTER` | `--stale-after` (rss-update) |")
        })
        #expect(rows.contains { $0.hasPrefix("| now | rss-create, rss-update, rss-publish, rss-inspect, rss-feeds, rss-serve | not in the file | `SOURCE_DATE_EPOCH` |") })
        #expect(SettingsReference.tabSeparated().split(separator: "\n").count == Settings.all.filter { $0.inFile }.count)
    }
}
