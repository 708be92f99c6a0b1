import Foundation

/// Whether a test that needs an outside tool (promtool, chromium, SeaweedFS, a scratch root)
/// must run here, and fail when the tool is missing, rather than be skipped: CI says so by an
/// environment variable. One reading of such a variable for every tool: set, and not `0`,
/// `false` or `no` (in any case).
public enum TestRequirement {
    /// `variable` is on; under CI (`CI` on) too when `underCI`.
    public static func isRequired(by variable: String, underCI: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        func on(_ name: String) -> Bool {
            guard let value = environment[name]?.lowercased(), !value.isEmpty else { return false }
            return value != "0" && value != "false" && value != "no"
        }
        return on(variable) || (underCI && on("CI"))
    }
}
