import FeedCommandSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What lies at a configuration file's path is anything a person or a mistake put there: a
/// command must say what is wrong with it, never wait forever nor read without end.
@Suite("A configuration path that is not a plain file")
struct ConfigFileKindTests {
    @Test func aFIFOIsRefusedAtOnceInsteadOfWaitingForAWriter() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.url.path + "/feedmill.toml"
        #expect(mkfifo(fifo, 0o644) == 0)
        // Were the FIFO opened to wait for a writer, this writer would let it go after 5 s
        // with nothing in it (an empty configuration, no error): the test fails, never hangs.
        let unblock = Thread {
            Thread.sleep(forTimeInterval: 5)
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { close(descriptor) }
        }
        unblock.start()
        let started = ContinuousClock.now
        for (commandLine, environment) in [(fifo, [:]), (nil, ["FEEDMILL_CONFIG": fifo]), (nil, ["XDG_CONFIG_HOME": directory.url.path])] {
            var search = environment
            if environment["XDG_CONFIG_HOME"] != nil {
                // On the search path: the user's file is a FIFO.
                try FileManager.default.createDirectory(atPath: directory.url.path + "/feedmill", withIntermediateDirectories: true)
                #expect(mkfifo(directory.url.path + "/feedmill/feedmill.toml", 0o644) == 0)
                search["HOME"] = "/nonexistent"
            }
            do {
                _ = try ConfigFileLocator.load(commandLine: commandLine, environment: search, exists: { $0.hasPrefix(directory.url.path) })
                Issue.record("a FIFO read as a configuration file")
            } catch {
                #expect(error.message.contains("cannot be read: it is a FIFO, not a file"), "\(error.message)")
                #expect(error.exitStatus == 66)
            }
        }
        #expect(ContinuousClock.now - started < .seconds(4), "refused at once")
    }

    @Test func aDirectoryADeviceAndAHugeFileAreSaidForWhatTheyAre() throws {
        let directory = try TemporaryDirectory()
        let cases: [(path: String, words: String)] = [
            (directory.url.path, "it is a directory, not a file"),
            ("/dev/zero", "it is a device, not a file"),
            (try Self.write(directory.url.path + "/huge.toml", String(repeating: "# padding\n", count: 120_000)), "it is larger than 1 MiB"),
        ]
        for (path, words) in cases {
            do {
                _ = try ConfigFileLocator.load(commandLine: path, environment: [:])
                Issue.record("\(path) read as a configuration file")
            } catch {
                #expect(error.message == "configuration file \(path) (from command line) cannot be read: \(words)"
                    + (words.hasPrefix("it is larger") ? ", which no configuration is" : ""), "\(error.message)")
                #expect(error.exitStatus == 66)
            }
        }
        // A file of ordinary size is still read.
        let file = try Self.write(directory.url.path + "/ok.toml", "concurrency = 3\n")
        #expect(try ConfigFileLocator.load(commandLine: file, environment: [:]).file?.path == file)
    }

    @Test func aRelativeXDGConfigHomeIsIgnoredAsTheSpecificationSays() {
        #expect(ConfigFileLocator.searchPath(environment: ["XDG_CONFIG_HOME": "conf", "HOME": "/home/ann"]) == [
            "./feedmill.toml", "/home/ann/.config/feedmill/feedmill.toml", ConfigFileLocator.systemPath,
        ])
    }

    static func write(_ path: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
