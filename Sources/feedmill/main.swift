import FeedBasics
import FeedCommandSupport
import FeedmillCreate
import FeedmillFeeds
import FeedmillInspect
import FeedmillPublish
import FeedmillPull
import FeedmillUpdate
import Foundation

// One executable for every command, as git and busybox are: installed as `feedmill` with
// `rss-create`, `rss-update`, … as links to it. Called as `rss-update …` it is rss-update;
// called as `feedmill update …` it is rss-update too, with the same arguments, help, exit
// statuses and output. One binary carries the Swift runtime, Foundation and ICU once instead of
// six times (the Debian package: 379 MB installed before, see docs/operating.md).
guard let (name, arguments) = MultiCall.command(in: CommandLine.arguments) ?? MultiCallUsage.helpRequest(CommandLine.arguments.dropFirst()) else {
    exit(MultiCallUsage.run(CommandLine.arguments.dropFirst(), version: FeedmillVersion.line(
        MultiCall.executable, commit: BuildStamp.commit, built: BuildStamp.date)))
}
switch name {
case "rss-create": CreateCommand.main(arguments)
case "rss-update": UpdateCommand.main(arguments)
case "rss-publish": PublishCommand.main(arguments)
case "rss-inspect": InspectCommand.main(arguments)
case "rss-feeds": FeedsCommand.mainRefusingUnknownSubcommands(arguments)
case "rss-pull": await PullCommand.mainAsync(arguments)
default:
    // Only a MultiCall name this switch does not know gets here (MultiCallTests runs every one).
    FileHandle.standardError.write(Data("feedmill: \(name) is not built into this executable\n".utf8))
    exit(70)
}
