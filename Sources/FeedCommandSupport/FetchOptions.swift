import ArgumentParser
import FeedFetching

/// The options every command that fetches shares, pulled in with `@OptionGroup`.
public struct FetchOptions: ParsableArguments {
    @Flag(help: "Allow fetching from loopback, private and link-local addresses (refused by default, against server-side request forgery).")
    public var allowPrivateNetworks = false

    @Option(help: ArgumentHelp("A URL where publishers can reach you, sent in the User-Agent.", valueName: "url"))
    public var contact: String = FetchConfiguration.defaultContactURL

    @Option(help: ArgumentHelp("Seconds one fetch may take, redirects included.", valueName: "seconds"))
    public var timeout: Double = FetchConfiguration.default.totalTimeout

    @Option(help: ArgumentHelp("Largest feed accepted, in MiB, counted after decompression.", valueName: "mib"))
    public var maxSize: Int = FetchConfiguration.default.maxBodyBytes >> 20

    public init() {}

    public func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard (1...1024).contains(maxSize) else { throw ValidationError("--max-size must be between 1 and 1024 MiB") }
        guard contact.hasPrefix("http://") || contact.hasPrefix("https://") || contact.hasPrefix("mailto:") else {
            throw ValidationError("--contact must be an http(s) or mailto: URL")
        }
    }

    /// The fetcher configuration these options describe.
    public var configuration: FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.totalTimeout = timeout
        configuration.maxBodyBytes = maxSize << 20
        configuration.contactURL = contact
        configuration.networkPolicy = allowPrivateNetworks ? .allowAll : .publicOnly
        return configuration
    }
}
