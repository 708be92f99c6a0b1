import Foundation
import PackagePlugin

/// Stamps an executable with the commit it is built from: before every build,
/// `Scripts/build-stamp` writes `BuildStamp.swift` (the short commit and the commit's date, or
/// `unknown` outside a git checkout) into the target's sources, rewriting it only when it
/// changes, so an unchanged tree rebuilds nothing and two builds of one commit are the same
/// bytes. Applied to the executables only: a new commit relinks them and recompiles no library.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "stamp")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Stamping \(target.name) with its commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [package.appending(path: "Scripts/build-stamp").path, package.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
