import Foundation

/// One setting of the sandbox, declared once; ``all`` is the table.
///
/// A setting has its key in `/_sandbox/settings` and its old keys, its options of `atoauth sandbox`, what it takes
/// (a number in a unit and range, a flag, or permission scope tokens), its help, and where in
/// ``SandboxConfiguration`` it is applied.
public struct SandboxSetting: Sendable {
    /// What a setting takes.
    public enum Kind: Sendable, Hashable {
        /// A number within a range, in the range's unit; durations are in seconds.
        case number(SandboxSettingRange)
        /// `true` or `false`.
        case flag
        /// Permission scope tokens (atproto.com/specs/permission).
        case tokens
    }

    /// A setting's value.
    public enum Value: Sendable, Hashable {
        /// A number, in the setting's unit.
        case number(Double)
        /// A flag.
        case flag(Bool)
        /// Permission scope tokens.
        case tokens([String])
    }

    /// An option of `atoauth sandbox` that sets it, in another unit when `scale` is not 1.
    public struct Option: Sendable, Hashable {
        /// The option's long name, without dashes: `slow-milliseconds`.
        public var name: String
        /// How many of the option's units make one of the setting's: 1000 for milliseconds of a setting in seconds.
        public var scale: Double
        /// The option's unit, when not the setting's.
        public var unit: String?

        /// An option in `unit`, `scale` of them to one of the setting's.
        public init(_ name: String, unit: String? = nil, scale: Double = 1) {
            self.name = name
            self.unit = unit
            self.scale = scale
        }
    }

    /// The key in `/_sandbox/settings` and the `faults` of the start-up summary.
    public let key: String
    /// Other keys `POST /_sandbox/settings` takes for it.
    public private(set) var aliases: [String] = []
    /// The options of `atoauth sandbox` in the setting's unit: the key in kebab case, then any old names kept.
    public private(set) var options: [String]
    /// An option in another unit, kept from before durations were all in seconds.
    public private(set) var scaledOption: Option?
    /// What it takes.
    public let kind: Kind
    /// One sentence of help.
    public private(set) var help = ""
    /// Whether it makes the sandbox misbehave on purpose, so the start-up summary lists it when it is on.
    public private(set) var isFault = false
    let read: @Sendable (SandboxConfiguration) -> Value
    let write: @Sendable (inout SandboxConfiguration, Value) -> Void

    init(
        key: String,
        kind: Kind,
        read: @escaping @Sendable (SandboxConfiguration) -> Value,
        write: @escaping @Sendable (inout SandboxConfiguration, Value) -> Void
    ) {
        self.key = key
        self.kind = kind
        self.read = read
        self.write = write
        // `accessTokenLifetime` as an option: `access-token-lifetime`.
        self.options = [key.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }]
    }

    /// The same setting with `help`.
    func help(_ text: String) -> Self { with { $0.help = text } }
    /// The same setting set by `names`, the first the main one.
    func options(_ names: String...) -> Self { with { $0.options = names } }
    /// The same setting, also taken by `POST /_sandbox/settings` as `keys`.
    func aliases(_ keys: String...) -> Self { with { $0.aliases = keys } }
    /// The same setting, also set by `option` in another unit.
    func scaled(_ option: Option) -> Self { with { $0.scaledOption = option } }
    /// The same setting, a fault.
    var asFault: Self { with { $0.isFault = true } }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var setting = self
        change(&setting)
        return setting
    }

    /// The range of a number, or `nil`.
    public var range: SandboxSettingRange? {
        if case .number(let range) = kind { return range }
        return nil
    }

    /// The option's value name in help: `seconds`, `count`, `token`.
    public var valueName: String? {
        switch kind {
        case .number(let range): range.unit == "seconds" ? "seconds" : "count"
        case .flag: nil
        case .tokens: "token"
        }
    }

    /// The setting's value in `configuration`.
    public func value(in configuration: SandboxConfiguration) -> Value { read(configuration) }

    /// Why `value` is refused, named `name` (a key or an option) in a unit `option` may give; `nil` when taken.
    public func problem(_ value: Value, name: String, in option: Option? = nil) -> String? {
        switch (kind, value) {
        case (.number(let range), .number(let number)):
            range.renamed(name, unit: option?.unit, scale: option?.scale ?? 1).problem(number)
        case (.tokens, .tokens(let tokens)):
            tokens.lazy.compactMap(SandboxConfiguration.permissionProblem).first.map { "\(name): \($0)" }
        case (.flag, .flag): nil
        default: typeProblem(name: name)
        }
    }

    /// What the setting takes: `a whole number of seconds from 1 to 86400`, `true or false`.
    public var expectation: String {
        switch kind {
        case .number(let range): range.expectation
        case .flag: "true or false"
        case .tokens: "an array of permission scope tokens"
        }
    }

    /// The refusal of a value of another type.
    func typeProblem(name: String) -> String { "\(name) must be \(expectation)" }

    /// Sets `value` in `configuration`; check it with ``problem(_:name:in:)`` first.
    public func apply(_ value: Value, to configuration: inout SandboxConfiguration) {
        write(&configuration, value)
    }

    /// Every setting by key, with its value in `configuration`, as `GET /_sandbox/settings` answers.
    static func values(of configuration: SandboxConfiguration) -> [String: Any] {
        Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0.value(in: configuration).json) })
    }
}

extension SandboxSetting.Value {
    /// The value as JSON: a whole number as an integer.
    public var json: Any {
        switch self {
        case .number(let number): Int(exactly: number).map { $0 as Any } ?? number
        case .flag(let flag): flag
        case .tokens(let tokens): tokens
        }
    }

    /// The value as the start-up summary writes it: `3600`, `0.25`, tokens joined by spaces.
    public var text: String {
        switch self {
        case .number(let number): Int(exactly: number).map(String.init) ?? String(number)
        case .flag(let flag): String(flag)
        case .tokens(let tokens): tokens.joined(separator: " ")
        }
    }
}
