import Foundation

/// The AWS CLI's shared files, read the way it reads them: `~/.aws/credentials` (sections
/// named by profile: `[default]`, `[NAME]`) and `~/.aws/config` (`[default]`,
/// `[profile NAME]`), moved by `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE`; the profile
/// is `AWS_PROFILE`, else `default`. A nested block (`s3 =` then indented `endpoint_url = ...`)
/// is read as `s3.endpoint_url`. Only what a publisher needs is looked up; a file that does not
/// exist is an empty one.
struct AWSSharedFiles {
    let profile: String
    /// True when `AWS_PROFILE` named the profile (then it must exist).
    let profileChosen: Bool
    let credentialsPath: String?
    let configPath: String?
    private let credentials: [String: String]
    private let config: [String: String]
    let profileFound: Bool

    init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let home = value("HOME")
        func expand(_ path: String) -> String {
            guard path.hasPrefix("~/"), let home else { return path }
            return home + path.dropFirst()
        }
        profile = value("AWS_PROFILE") ?? "default"
        profileChosen = value("AWS_PROFILE") != nil
        credentialsPath = value("AWS_SHARED_CREDENTIALS_FILE").map(expand) ?? home.map { $0 + "/.aws/credentials" }
        configPath = value("AWS_CONFIG_FILE").map(expand) ?? home.map { $0 + "/.aws/config" }
        let credentialSections = credentialsPath.map(Self.sections) ?? [:]
        let configSections = configPath.map(Self.sections) ?? [:]
        let configSection = profile == "default" ? (configSections["default"] ?? configSections["profile default"]) : configSections["profile \(profile)"]
        credentials = credentialSections[profile] ?? [:]
        config = configSection ?? [:]
        profileFound = credentialSections[profile] != nil || configSection != nil
    }

    /// A key of the profile: the credentials file first, then the config file (as the CLI).
    func credential(_ key: String) -> String? { credentials[key] ?? config[key] }

    /// A key of the profile's section in the config file.
    func setting(_ key: String) -> String? { config[key] }

    /// Where the profile was looked for, for messages: `profile "p" in FILE and FILE`.
    var describedPlaces: String {
        let files = [credentialsPath, configPath].compactMap { $0 }
        return "profile \"\(profile)\"" + (files.isEmpty ? " (no HOME: no shared AWS files)" : " in " + files.joined(separator: " and "))
    }

    /// Every section's keys; keys and section names trimmed, values unquoted of spaces.
    static func sections(of path: String) -> [String: [String: String]] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        var sections: [String: [String: String]] = [:]
        var current: String?
        var nestedUnder: String?
        for rawLine in String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                current = name
                nestedUnder = nil
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let section = current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let indented = rawLine.first == " " || rawLine.first == "\t"
            if indented, let parent = nestedUnder {
                sections[section]?["\(parent).\(key)"] = value
            } else if value.isEmpty {
                nestedUnder = key
            } else {
                nestedUnder = nil
                sections[section]?[key] = value
            }
        }
        return sections
    }
}
