import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The Debian package, built by `Scripts/build-deb` from the binaries beside this test (the
/// debug build: the layout is the one `dpkg-buildpackage` makes, the Swift runtime is loaded
/// from the toolchain, which the scratch root sees), installed with `dpkg -i` into a scratch
/// root (``ScratchRoot``: an overlay of `/`), used as an operator would, then removed.
///
/// Needs root and overlayfs; skipped elsewhere, except where it is required (CI sets
/// `FEEDMILL_REQUIRE_PACKAGE_TEST=1`): there it runs, and fails when it cannot.
@Suite("The Debian package, installed in a scratch root", .serialized)
struct PackageInstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var isRequired: Bool { TestRequirement.isRequired(by: "FEEDMILL_REQUIRE_PACKAGE_TEST", underCI: false) }

    static var shouldRun: Bool { isRequired || (ScratchRoot.isAvailable && InstalledTool.exists("dpkg-deb") && InstalledTool.exists("dpkg-shlibdeps")) }

    /// Which units the package installs, as systemd-analyze verify names them (templates as one instance).
    static let units = [
        "feedmill-update.service", "feedmill-update.timer", "feedmill-create.service",
        "feedmill-update@2-4.service", "feedmill-update@2-4.timer", "feedmill-create@2-4.service",
    ]

    /// Builds the package from the test's own binaries; returns its bytes.
    static func buildPackage() throws -> Data {
        let out = try TemporaryDirectory()
        let built = try runToCompletion(
            root.appendingPathComponent("Scripts/build-deb").path,
            ["--bin-dir", Executable.directoryWithEveryCommand, "--out", out.url.path, "--dev"], in: root)
        try #require(built.status == 0, "Scripts/build-deb: \(built.stderr)")
        let path = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try checkDebugSymbolsPackage(beside: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// feedmill-dbgsym, as debhelper makes it: the executable in the package has no debug
    /// sections and names its debug file; the -dbgsym package holds that file under the
    /// executable's build id, with the debug sections, and says the build id in its control.
    static func checkDebugSymbolsPackage(beside deb: String) throws {
        let directory = URL(fileURLWithPath: deb).deletingLastPathComponent()
        let ddeb = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("feedmill-dbgsym_") && $0.hasSuffix(".ddeb") },
            "no feedmill-dbgsym_*.ddeb beside \(deb)")
        let unpacked = try TemporaryDirectory()
        let main = unpacked.url.appendingPathComponent("main").path, debug = unpacked.url.appendingPathComponent("dbgsym").path
        #expect(try runToCompletion("/usr/bin/dpkg-deb", ["-x", deb, main]).status == 0)
        #expect(try runToCompletion("/usr/bin/dpkg-deb", ["-x", directory.appendingPathComponent(ddeb).path, debug]).status == 0)
        let control = try runToCompletion("/usr/bin/dpkg-deb", ["-f", directory.appendingPathComponent(ddeb).path])
        let notes = try runToCompletion("/usr/bin/readelf", ["-n", main + "/usr/bin/feedmill"]).stdout
        let buildID = try #require(notes.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init))
        #expect(control.stdout.contains("Package: feedmill-dbgsym\n") && control.stdout.contains("Build-Ids: \(buildID)\n"), "\(control.stdout)")
        #expect(control.stdout.contains("Depends: feedmill (= ") && control.stdout.contains("Section: debug\n"), "\(control.stdout)")
        let sections = { (path: String) in try runToCompletion("/usr/bin/readelf", ["-S", "-W", path]).stdout }
        let debugFile = debug + "/usr/lib/debug/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug"
        #expect(try sections(debugFile).contains(".debug_info"), "the symbols are in \(debugFile)")
        let stripped = try sections(main + "/usr/bin/feedmill")
        #expect(!stripped.contains(".debug_info") && stripped.contains(".gnu_debuglink"), "the packaged executable is stripped and names its debug file")
    }

    @Test(.enabled(if: shouldRun, "needs root, overlayfs, unshare and dpkg-dev (Scripts/setup-debian); FEEDMILL_REQUIRE_PACKAGE_TEST=1 makes it fail instead"))
    func installsVerifiesRefusesRootAndUninstallsKeepingTheData() throws {
        try #require(ScratchRoot.isAvailable, "no scratch root here: not root, or overlayfs cannot mount an overlay of /")
        let scratch = try ScratchRoot()
        try scratch.place(try Self.buildPackage(), at: "tmp/feedmill.deb")

        // Installs: the files in place, the user and its directories made by sysusers/tmpfiles.
        let install = try scratch.run(["dpkg", "-i", "/tmp/feedmill.deb"])
        try #require(install.status == 0, "dpkg -i: \(install.stdout)\(install.stderr)")
        for path in [
            "usr/bin/feedmill", "usr/lib/sysusers.d/feedmill.conf", "usr/lib/tmpfiles.d/feedmill.conf",
            "usr/share/man/man1/rss-update.1.gz", "usr/share/man/man1/feedmill.1.gz", "usr/share/man/man5/feedmill.toml.5.gz",
            "usr/share/bash-completion/completions/rss-update", "usr/share/zsh/vendor-completions/_rss-update",
            "usr/share/fish/vendor_completions.d/rss-update.fish", "usr/share/bash-completion/completions/feedmill",
            "usr/share/zsh/vendor-completions/_feedmill", "usr/share/fish/vendor_completions.d/feedmill.fish",
            "usr/share/doc/feedmill/copyright", "usr/share/doc/feedmill/NOTICE",
        ] {
            #expect(scratch.changed(path) != nil, "not installed: /\(path)")
        }
        // One executable; the commands' familiar names are links to it.
        for command in ["rss-create", "rss-update", "rss-publish", "rss-inspect", "rss-feeds", "rss-pull"] {
            let link = try scratch.run(["readlink", "/usr/bin/" + command])
            #expect(link.status == 0 && link.stdout == "feedmill\n", "/usr/bin/\(command): \(link.stdout)\(link.stderr)")
        }
        #expect(try scratch.run(["find", "/usr/bin", "-type", "f", "-samefile", "/usr/bin/feedmill"]).stdout == "/usr/bin/feedmill\n")
        let config = try String(contentsOf: try #require(scratch.changed("etc/feedmill/feedmill.toml")), encoding: .utf8)
        #expect(config.split(separator: "\n").contains(#"data-dir = "/var/lib/feedmill/data""#))
        let conffiles = try scratch.run(["dpkg-query", "-W", "-f", "${Conffiles}", "feedmill"])
        #expect(conffiles.stdout.contains("/etc/feedmill/feedmill.toml "), "a conffile: \(conffiles.stdout)")
        for unit in ["feedmill-update.service", "feedmill-create.service", "feedmill-update@.service", "feedmill-create@.service"] {
            let text = try String(contentsOf: try #require(scratch.changed("usr/lib/systemd/system/" + unit)), encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/bin/rss-") && !text.contains("/usr/local/bin"), "\(unit) runs the package's binaries")
            #expect(!text.split(separator: "\n").contains("[Install]"), "\(unit): started by its timer or by hand, never enabled itself")
        }
        let passwd = try String(contentsOf: try #require(scratch.changed("etc/passwd")), encoding: .utf8)
        let user = try #require(passwd.split(separator: "\n").first { $0.hasPrefix("feedmill:") }, "systemd-sysusers made no user feedmill")
        let fields = user.split(separator: ":", omittingEmptySubsequences: false)
        #expect(fields.count == 7 && fields[5] == "/var/lib/feedmill" && fields[6] == "/usr/sbin/nologin", "\(user)")
        let uid = try #require(Int(fields[2]))
        for (path, mode) in [("var/lib/feedmill", 0o750), ("var/lib/feedmill/data", 0o750), ("var/www/feedmill", 0o755)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: try #require(scratch.changed(path), "systemd-tmpfiles made no /\(path)").path)
            #expect((attributes[.ownerAccountID] as? NSNumber)?.intValue == uid, "/\(path) belongs to feedmill")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == mode, "/\(path) mode")
        }

        // The installed units verify, and verification would catch a broken one.
        let verify = try scratch.run(["systemd-analyze", "verify", "--man=no"] + Self.units)
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify.stdout)\(verify.stderr)")
        let unit = try String(contentsOf: try #require(scratch.changed("usr/lib/systemd/system/feedmill-update.service")), encoding: .utf8)
        try scratch.place(Data(unit.replacingOccurrences(of: "ExecStart=/usr/bin/rss-update", with: "ExecStart=/usr/bin/rss-missing").utf8), at: "tmp/feedmill-broken.service")
        let broken = try scratch.run(["systemd-analyze", "verify", "--man=no", "/tmp/feedmill-broken.service"])
        #expect(broken.status != 0 && broken.stderr.contains("/usr/bin/rss-missing"), "a unit whose program is missing fails: \(broken.stderr)")

        // The installed man pages render, and mandoc finds nothing to warn about.
        for page in ["man1/feedmill.1.gz", "man1/rss-create.1.gz", "man1/rss-update.1.gz", "man1/rss-publish.1.gz", "man1/rss-inspect.1.gz", "man1/rss-feeds.1.gz", "man1/rss-pull.1.gz", "man5/feedmill.toml.5.gz"] {
            let rendered = try scratch.run(["man", "-l", "/usr/share/man/" + page], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
            #expect(rendered.status == 0 && rendered.stdout.contains("SEE ALSO") && rendered.stdout.contains("The Feedmill developers"), "\(page): \(rendered.stderr)")
            if InstalledTool.exists("mandoc") {
                let lint = try scratch.run(["mandoc", "-T", "lint", "-W", "warning", "/usr/share/man/" + page])
                #expect(lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)")
            }
        }

        // The service user imports a feed list as the unit would (its FEEDMILL_CONFIG), from a
        // real server on 127.0.0.1, with HOME the user's, as sudo -u sets it.
        let server = try TestHTTPServer { request in
            .init(contentType: "application/rss+xml", body: """
                <?xml version="1.0"?><rss version="2.0"><channel><title>Feed \(request.path)</title><link>https://example.org/</link>\
                <item><title>one</title><link>https://example.org/one</link><guid>one</guid></item></channel></rss>
                """)
        }
        let opml = #"<opml version="2.0"><body><outline xmlUrl="\#(server.baseURL)/a.xml"/><outline xmlUrl="\#(server.baseURL)/b.xml"/></body></opml>"#
        try scratch.place(Data(opml.utf8), at: "tmp/feeds.opml")
        let create = try scratch.run(
            ["runuser", "-u", "feedmill", "--", "env", "HOME=/var/lib/feedmill", "rss-create", "--opml", "/tmp/feeds.opml", "--allow-private-networks"],
            environment: ["FEEDMILL_CONFIG": "/etc/feedmill/feedmill.toml"])
        #expect(create.status == 0, "\(create.stderr)")
        #expect(!create.stderr.contains("could not write metrics"), "the packaged configuration names no metrics file that cannot exist: \(create.stderr)")
        let listed = try scratch.run(["rss-feeds", "list", "--format", "json"], environment: ["FEEDMILL_CONFIG": "/etc/feedmill/feedmill.toml"])
        let feeds = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
        let feed = try #require(feeds.compactMap { $0["feedid"] as? Int }.max(), "\(listed.stdout)")

        // "Done means": root on the server, by hand, with no configuration named, reads
        // /etc/feedmill/feedmill.toml and refuses to write into the service's data directory.
        // Asserted unconditionally: a build without the owner check must fail here.
        let help = try scratch.run(["rss-update", "--help"])
        #expect(help.stdout.contains("--allow-other-user"), "\(help.stdout)")
        do {
            let shown = try scratch.run(["rss-update", "--print-config"])
            let dataDir = shown.stdout.split(separator: "\n").first { $0.hasPrefix("data-dir ") } ?? ""
            #expect(dataDir.contains(#""/var/lib/feedmill/data""#) && dataDir.contains("/etc/feedmill/feedmill.toml"), "\(shown.stdout)\(shown.stderr)")
            let byHand = try scratch.run(["rss-update", "--feed", String(feed)])
            #expect(byHand.status == 77, "\(byHand.stderr)")
            #expect(byHand.stderr.contains("belongs to feedmill"), "\(byHand.stderr)")
            #expect(byHand.stderr.contains("sudo -u feedmill rss-update --feed \(feed)"), "\(byHand.stderr)")
            // The same command by its other name: the same refusal, the same line to run.
            let multiCall = try scratch.run(["feedmill", "update", "--feed", String(feed)])
            #expect(multiCall.status == byHand.status && multiCall.stderr == byHand.stderr, "\(multiCall.stderr)")
            let asOwner = try scratch.run(["runuser", "-u", "feedmill", "--", "env", "HOME=/var/lib/feedmill", "rss-update", "--feed", String(feed), "--allow-private-networks"])
            #expect(asOwner.status == 0, "run as the line says, it works: \(asOwner.stderr)")
        }
        // Whatever happened, nothing in the data directory belongs to root now.
        let owners = try scratch.run(["find", "/var/lib/feedmill", "!", "-user", "feedmill"])
        #expect(owners.status == 0 && owners.stdout.isEmpty, "files the service could no longer write: \(owners.stdout)")

        // Removal and purge take the package's files, and leave the data and the user.
        let remove = try scratch.run(["dpkg", "-r", "feedmill"])
        #expect(remove.status == 0, "dpkg -r: \(remove.stdout)\(remove.stderr)")
        #expect(try scratch.run(["test", "-e", "/usr/bin/rss-update"]).status == 1, "the binaries are removed")
        #expect(try scratch.run(["test", "-e", "/etc/feedmill/feedmill.toml"]).status == 0, "removal keeps the conffile")
        let purge = try scratch.run(["dpkg", "--purge", "feedmill"])
        #expect(purge.status == 0, "dpkg --purge: \(purge.stdout)\(purge.stderr)")
        #expect(try scratch.run(["test", "-e", "/etc/feedmill/feedmill.toml"]).status == 1, "purge removes the conffile")
        for path in ["/var/lib/feedmill/data/all_feeds.sqlite", "/var/lib/feedmill/data/feed_\(feed).sqlite", "/var/www/feedmill"] {
            #expect(try scratch.run(["test", "-e", path]).status == 0, "purge keeps what Feedmill did not install: \(path)")
        }
        #expect(try scratch.run(["getent", "passwd", "feedmill"]).status == 0, "the user keeps owning the data")
    }
}
