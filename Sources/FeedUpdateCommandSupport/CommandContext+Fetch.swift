import FeedBasics
import FeedCommandSupport
import FeedFetching
import Foundation

/// The fetcher's configuration, from the settings of the commands that fetch.
extension CommandContext {
    public func fetchConfiguration(_ options: FetchOptions) throws -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.totalTimeout = settings[Settings.timeout]
        configuration.maxBodyBytes = settings[Settings.maxSize] << 20
        configuration.networkPolicy = settings[Settings.allowPrivateNetworks] ? .allowAll : .publicOnly
        configuration.contactURL = settings[Settings.contact]
        let environment = ProcessInfo.processInfo.environment
        try check { () throws(SettingsError) in
            // The environment's proxies and certificate authorities are held to the same rules
            // as an option: a bad one stops the command here, not every feed later.
            switch settings[Settings.proxy] {
            case nil: configuration.proxies = try Self.readEnvironment { () throws(EnvironmentVariableError) in try .fromEnvironment(environment) }
            case "none"?, ""?: configuration.proxies = .direct
            case let proxy?:
                // Checked here, not by the setting's type: rss-publish reads the settings too
                // and does not link the fetcher.
                if let problem = ProxyURL.problem(proxy) {
                    throw settings.invalid(Settings.proxy, expected: Settings.proxy.expected + ": " + problem)
                }
                configuration.proxies = .explicit(proxy, environment: environment)
            }
            configuration.certificateAuthorities = try Self.readEnvironment { () throws(EnvironmentVariableError) in
                try .fromEnvironment(environment)
            }
        }
        switch options.recording {
        case .record(let directory)?: configuration.recording = .record(directory: directory)
        case .replay(let directory)?:
            // At once, not as a failure and a backoff recorded for every feed.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw usageError("--replay \(directory): no such directory (a recording is written by --record)")
            }
            configuration.recording = .replay(directory: directory)
        case nil: break
        }
        configuration.fixedNow = fixedNow
        return configuration
    }

    /// A fetch setting read from the environment, its error as a setting's.
    private static func readEnvironment<Value>(_ read: () throws(EnvironmentVariableError) -> Value) throws(SettingsError) -> Value {
        try rethrowing(try read(), as: { (error: EnvironmentVariableError) in SettingsError(message: error.description) })
    }
}
