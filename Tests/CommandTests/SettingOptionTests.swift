import FeedCommandSupport
import Foundation
import TestSupport
import Testing

/// Each command's options are bound to the settings it declares: an option given on the
/// command line is the value `--print-config` shows, from the command line. An option added
/// to a command but not bound (or bound to the wrong setting) would be silently ignored.
@Suite("Every setting a command takes is an option of that command")
struct SettingOptionTests {
    /// A value each setting accepts, other than its default where it has one.
    static let samples: [String: String] = [
        "data-dir": "/srv/feedmill", "opml": "list.opml", "out": "/srv/www", "concurrency": "7", "per-host": "3",
        "timeout": "12.5", "max-size": "4", "contact": "mailto:ops@example.org", "proxy": "none", "stale-after": "2h",
        "keep-items": "40", "keep-days": "9", "deadline": "15m", "deltas": "5", "site-url": "https://feeds.example/",
        "title": "Morning", "log-format": "json", "metrics-file": "/tmp/feedmill.prom", "now": "1700000000",
        "shard": "2/4",
        "retire-after": "1h", "signing-key": "/etc/feedmill/signing.key",
        "listen": "127.0.0.1:9999", "public-url": "https://feeds.example/hub", "users": "/etc/feedmill/users",
    ]

    @Test(arguments: CommandName.allCases)
    func eachOptionIsTheValueOfItsSetting(command: CommandName) throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("empty.toml", "")
        var arguments = command == .feeds ? ["list"] : (command == .inspect ? ["feed.xml"] : [])
        arguments += ["--config", config, "--print-config"]
        var expected: [String: String] = [:]
        for setting in command.settings where !command.fileOnlySettings.contains(setting.key) {
            if ["allow-private-networks", "allow-other-user"].contains(setting.key) {
                // Flags: given, they are true.
                arguments.append("--" + setting.key)
                expected[setting.key] = "true"
            } else {
                let sample = try #require(Self.samples[setting.key], "a sample value for \(setting.key)")
                arguments += ["--" + setting.key, sample]
                expected[setting.key] = sample
            }
        }
        let result = try Executable(name: command.executable).runCapturing(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == command.settings.count, "\(result.stdout)")
        for (key, value) in expected {
            let line = lines.first { $0.hasPrefix(key + " ") }
            let shown = Double(value) != nil || value == "true" ? value : "\"" + value + "\""
            #expect(line?.hasSuffix("= " + shown + "  # command line") == true, "\(key): \(line ?? "missing")")
        }
    }
}
