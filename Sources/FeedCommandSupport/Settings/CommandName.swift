/// A Feedmill command: its executable's name and the configuration file section that applies
/// to it only. The settings each command takes are listed once, in ``settings``; the
/// executables only bind their options to them.
public enum CommandName: String, CaseIterable, Sendable {
    case create, update, publish, inspect, feeds, serve

    /// `rss-update`: for messages, logs and metrics.
    public var executable: String { "rss-" + rawValue }

    /// The `[update]` table of the configuration file.
    public var section: String { rawValue }

    /// Every setting the command reads, in `--print-config` order.
    public var settings: [any AnySetting] {
        let common: [any AnySetting] = [Settings.logFormat, Settings.now]
        let writing: [any AnySetting] = [Settings.allowOtherUser]
        switch self {
        case .create: return [Settings.feedList] + Settings.pipeline + [Settings.shard] + writing + common
        case .update: return Settings.pipeline + [Settings.staleAfter, Settings.shard] + writing + common
        case .publish:
            return [
                Settings.publishDirectory, Settings.dataDirectory, Settings.deltas, Settings.siteURL, Settings.title,
                Settings.shard, Settings.retireAfter, Settings.signingKey, Settings.metricsFile,
            ] + writing + common
        case .inspect: return Settings.fetch + common
        case .feeds: return [Settings.dataDirectory, Settings.staleAfter] + writing + common
        case .serve:
            return [
                Settings.listen, Settings.publishDirectory, Settings.dataDirectory, Settings.publicURL, Settings.users, Settings.deltas,
                Settings.siteURL, Settings.title, Settings.signingKey,
            ] + Settings.fetch + writing + common
        }
    }

    /// Settings the command reads from the environment and the file but has no option for.
    public var fileOnlySettings: Set<String> {
        self == .feeds ? [Settings.staleAfter.key] : []
    }
}
