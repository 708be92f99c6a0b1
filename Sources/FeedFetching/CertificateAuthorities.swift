import Foundation

/// The certificate authorities TLS trusts: libcurl's own (Debian's bundle,
/// `/etc/ssl/certs/ca-certificates.crt`), unless the environment names others the way the
/// curl tool reads them: `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`, is the bundle
/// (`CURLOPT_CAINFO`, which replaces the system bundle), and `SSL_CERT_DIR` a directory of
/// hashed certificates (`CURLOPT_CAPATH`, as made by `openssl rehash`).
///
/// Why read them at all: libcurl is built with its own default bundle, so OpenSSL's reading of
/// `SSL_CERT_FILE` never happens, and a machine behind an inspecting proxy or with a private
/// CA had no way to make Feedmill trust it. Read once, when a command starts, into the
/// ``FetchConfiguration``; a variable naming a file or directory that is not there stops the
/// command, rather than failing every https feed with a certificate error.
public struct CertificateAuthorities: Sendable, Equatable {
    /// `CURLOPT_CAINFO`: a PEM file of trusted certificates; `nil` for libcurl's default.
    public var bundleFile: String?
    /// `CURLOPT_CAPATH`: a directory of trusted certificates; `nil` for libcurl's default.
    public var directory: String?

    public init(bundleFile: String? = nil, directory: String? = nil) {
        self.bundleFile = bundleFile
        self.directory = directory
    }

    /// libcurl's defaults.
    public static let system = CertificateAuthorities()

    /// What `CURL_CA_BUNDLE`, `SSL_CERT_FILE` and `SSL_CERT_DIR` say (an empty value counts as unset).
    /// - Throws: the variable that names a file or directory that does not exist.
    public static func fromEnvironment(_ environment: [String: String]) throws(EnvironmentVariableError) -> CertificateAuthorities {
        var authorities = CertificateAuthorities()
        if let name = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"].first(where: { !(environment[$0] ?? "").isEmpty }), let path = environment[name] {
            try check(name, path, directory: false)
            authorities.bundleFile = path
        }
        if let path = environment["SSL_CERT_DIR"], !path.isEmpty {
            try check("SSL_CERT_DIR", path, directory: true)
            authorities.directory = path
        }
        return authorities
    }

    private static func check(_ variable: String, _ path: String, directory expected: Bool) throws(EnvironmentVariableError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let what = expected ? "a directory of trusted certificates" : "a file of trusted certificates (PEM)"
        let problem: String
        switch (exists, isDirectory.boolValue) {
        case (false, _): problem = "no such \(expected ? "directory" : "file")"
        case (true, let found) where found != expected: problem = found ? "a directory, not a file" : "a file, not a directory"
        default: return
        }
        throw EnvironmentVariableError(
            variable: variable, shownValue: path, problem: "\(problem); expected \(what) for TLS, or leave it unset for the system's")
    }
}
