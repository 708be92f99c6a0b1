import ArgumentParser
import FeedCommandSupport
import FeedFetching
import FeedPipeline
import FeedStorage
import Foundation

/// The typed settings of the commands that fetch: `rss-create`, `rss-update`, `rss-inspect`.
extension CommandContext {
    public func fetchConfiguration(_ options: FetchOptions) throws -> FetchConfiguration {
        var configuration = FetchConfiguration()
        try check { () throws(SettingsError) in
            configuration.totalTimeout = try settings.positiveDouble(.timeout)
            configuration.maxBodyBytes = try settings.int(.maxSize, in: 1...1024) << 20
            configuration.networkPolicy = try settings.bool(.allowPrivateNetworks) ? .allowAll : .publicOnly
            let contact = settings.string(.contact) ?? FetchConfiguration.defaultContactURL
            guard contact.hasPrefix("http://") || contact.hasPrefix("https://") || contact.hasPrefix("mailto:") else {
                throw settings.invalid(.contact, "an http(s) or mailto: URL")
            }
            configuration.contactURL = contact
            let environment = ProcessInfo.processInfo.environment
            // The environment's proxies and certificate authorities are held to the same rules
            // as an option: a bad one stops the command here, not every feed later.
            switch settings.string(.proxy) {
            case nil: configuration.proxies = try Self.readEnvironment { () throws(EnvironmentVariableError) in try .fromEnvironment(environment) }
            case "none"?, ""?: configuration.proxies = .direct
            case let proxy?:
                if let problem = ProxyURL.problem(proxy) {
                    throw settings.invalid(.proxy, "a proxy URL (http://host:port, socks5h://host:port) or none: \(problem)")
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
                fail("--replay \(directory): no such directory (a recording is written by --record)")
                throw ExitCode(ExitStatus.usage)
            }
            configuration.recording = .replay(directory: directory)
        case nil: break
        }
        configuration.fixedNow = try fixedNow()
        return configuration
    }

    /// A fetch setting read from the environment, its error as a setting's.
    private static func readEnvironment<Value>(_ read: () throws(EnvironmentVariableError) -> Value) throws(SettingsError) -> Value {
        do {
            return try read()
        } catch {
            throw SettingsError(message: error.description)
        }
    }

    /// The typed settings of `rss-create` and `rss-update`.
    public func pipelineConfiguration(_ options: PipelineOptions) throws -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.fetch = try fetchConfiguration(options.fetch)
        try check { () throws(SettingsError) in
            configuration.dataDirectory = settings.text(.dataDirectory)
            configuration.concurrency = try settings.int(.concurrency, in: 1...256)
            configuration.perHostLimit = try settings.int(.perHost, in: 1...64)
            configuration.deadline = try settings.seconds(.deadline).map(Double.init)
            if settings.string(.keepItems) != nil { configuration.retention.keepItems = try settings.int(.keepItems, in: Retention.itemLimits) }
            if settings.string(.keepDays) != nil { configuration.retention.keepDays = try settings.int(.keepDays, in: Retention.dayLimits) }
            if settings.settings.contains(.staleAfter), let staleAfter = try settings.seconds(.staleAfter) {
                configuration.staleAfter = staleAfter
            }
        }
        if let now = try fixedNow() { configuration.fixClock(at: now) }
        return configuration
    }
}
