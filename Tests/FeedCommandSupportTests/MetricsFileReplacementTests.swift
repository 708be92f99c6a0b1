import FeedCommandSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--metrics-file` names a path a person typed: what Feedmill finds there and did not write
/// (a configuration file, a FIFO, a link to anything) is left alone, and said; its own
/// previous file, or an empty one made ready for it, is replaced.
@Suite("What a metrics file may replace")
struct MetricsFileReplacementTests {
    let run = MetricsFile.Run(command: "rss-update", finishedAt: 1_700_000_000, succeeded: true, exitCode: 0, metrics: nil)

    @Test func aFileFeedmillDidNotWriteIsLeftAsItIs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feedmill.toml"
        let mine = "data-dir = \"/srv/feeds\"\n# feedmill_like comment\n"
        try Data(mine.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: MetricsFile.NotAMetricsFile(path: path, what: "holds lines that are not feedmill_ metrics")) {
            try MetricsFile.write(run, to: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == mine)

        let fifo = directory.url.path + "/fifo.prom"
        #expect(mkfifo(fifo, 0o644) == 0)
        let victim = directory.url.path + "/victim"
        try Data("not metrics".utf8).write(to: URL(fileURLWithPath: victim))
        let link = directory.url.path + "/link.prom"
        #expect(symlink(victim, link) == 0)
        for path in [fifo, link, directory.url.path] {
            #expect(throws: MetricsFile.NotAMetricsFile.self) { try MetricsFile.write(run, to: path) }
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still there")
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link is still there")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "not metrics")
    }

    @Test func itsOwnPreviousFileAnEmptyOneOrNoneIsReplaced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feedmill.prom"
        try MetricsFile.write(run, to: path)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(first.contains("feedmill_last_run_exit_code{command=\"rss-update\"} 0"))
        try MetricsFile.write(run, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
        let empty = directory.url.path + "/empty.prom"
        FileManager.default.createFile(atPath: empty, contents: Data())
        try MetricsFile.write(run, to: empty)
        #expect(try String(contentsOfFile: empty, encoding: .utf8) == first)
    }
}
