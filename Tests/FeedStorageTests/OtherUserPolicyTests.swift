import FeedStorage
import Foundation
import TestSupport
import Testing

@Suite("Writing into another user's directory")
struct OtherUserPolicyTests {
    @Test func theOwnerWritesAndAnyoneElseIsRefusedUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        let owner = try #require(FileOwnership.of(directory.url.path)).uid
        let policy = OtherUserPolicy(commandLine: ["/usr/bin/rss-update", "--feed", "5"])
        try policy.check(writingInto: directory.url.path, role: "data directory", euid: owner)
        #expect(throws: OtherOwnerRefusal(
            directory: directory.url.path, role: "data directory", owner: owner, runner: owner &+ 4242,
            commandLine: ["/usr/bin/rss-update", "--feed", "5"])
        ) {
            try policy.check(writingInto: directory.url.path, role: "data directory", euid: owner &+ 4242)
        }
        try OtherUserPolicy(allowOtherUser: true).check(writingInto: directory.url.path, role: "data directory", euid: owner &+ 4242)
        // A directory that is not there yet is nobody's: created by this run, as rss-create does.
        try policy.check(writingInto: directory.url.path + "/new", role: "data directory", euid: owner &+ 4242)
    }

    @Test func theSuggestedCommandIsTheInstalledNameWithArgumentsQuotedForAShell() {
        #expect(ShellQuoting.commandLine(["/work/.build/debug/rss-update", "--feed", "42"]) == "rss-update --feed 42")
        #expect(ShellQuoting.commandLine(["rss-feeds", "add", "https://a.example/f?x=1&y=2", "--title", "Bob's feed", ""])
            == #"rss-feeds add 'https://a.example/f?x=1&y=2' --title 'Bob'\''s feed' ''"#)
        #expect(ShellQuoting.quote("/var/lib/feedmill/data") == "/var/lib/feedmill/data")
        #expect(ShellQuoting.quote("$HOME") == "'$HOME'")
    }

    @Test func aDirectorysModeLessExecuteIsWhatItsFilesGet() {
        #expect(FileOwnership(uid: 1, gid: 1, mode: 0o750).fileMode == 0o640)
        #expect(FileOwnership(uid: 1, gid: 1, mode: 0o2775).fileMode == 0o664)
        #expect(FileOwnership(uid: 1, gid: 1, mode: 0o644).octalMode == "0644")
    }
}
