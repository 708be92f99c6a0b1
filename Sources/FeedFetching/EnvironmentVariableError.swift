/// An environment variable the fetcher reads (`http_proxy`, `SSL_CERT_FILE` …) whose value it
/// cannot use. The commands refuse to start over it (exit status 64), as they do over a bad
/// option: left alone, it would fail every feed with a message that names something else.
public struct EnvironmentVariableError: Error, Equatable, CustomStringConvertible, Sendable {
    public var variable: String
    /// The value as shown: a proxy's credentials are left out.
    public var shownValue: String
    /// What is wrong, and what the variable is for.
    public var problem: String

    public init(variable: String, shownValue: String, problem: String) {
        self.variable = variable
        self.shownValue = shownValue
        self.problem = problem
    }

    public var description: String { "\(variable)='\(shownValue)' (from the environment): \(problem)" }
}
