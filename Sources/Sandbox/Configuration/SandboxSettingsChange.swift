public import Failures
public import Foundation
import WireFormat

/// The body of `POST /_sandbox/settings`, checked whole before anything is applied.
///
/// A JSON object (RFC 8259 §4) of settings by key or old key (``SandboxSetting/aliases``): each number finite and
/// within its range, each flag a JSON boolean, each token list an array of scope tokens that parse. A member it does
/// not know is refused: a misspelt setting changes nothing, and says so.
public struct SandboxSettingsChange: Sendable {
    /// Why a change was refused: the setting it concerns, as it was named (`nil` when the body is not a JSON object),
    /// and why.
    public struct Refusal: CategorizedError, Hashable {
        /// The key or option that named the setting.
        public var setting: String?
        /// Why, naming the setting first: `accessTokenLifetime must be a whole number of seconds from 1 to 86400`.
        public var message: String

        /// The message.
        public var description: String { message }

        /// A usage error: the change asked for is not one the sandbox takes.
        public var category: FailureCategory { .usage }

        /// A refusal of `setting` (`nil` for a whole body), saying why.
        public init(setting: String?, message: String) {
            self.setting = setting
            self.message = message
        }
    }

    /// The settings to change and their new values, in the order of ``SandboxSetting/all``.
    public private(set) var changes: [(setting: SandboxSetting, value: SandboxSetting.Value)] = []

    /// A value and the name it was given: a key, an old key or an option, which may be in another unit.
    public typealias Named = (
        setting: SandboxSetting, name: String, value: SandboxSetting.Value, option: SandboxSetting.Option?
    )

    /// A change of each setting `values` names.
    ///
    /// - Throws: a ``Refusal`` naming the first value refused.
    public init(_ values: [Named]) throws(Refusal) {
        for (setting, name, value, option) in values {
            if let problem = setting.problem(value, name: name, in: option) {
                throw Refusal(setting: name, message: problem)
            }
            guard let scale = option?.scale, case .number(let number) = value else {
                changes.append((setting, value))
                continue
            }
            changes.append((setting, .number(number / scale)))
        }
    }

    /// Reads and checks a `POST /_sandbox/settings` body.
    ///
    /// - Throws: a ``Refusal`` naming the first setting refused, or none when the body is not a JSON object.
    public init(json body: Data) throws(Refusal) {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: body) else {
            throw Refusal(setting: nil, message: "send a JSON object of settings")
        }
        let names = Set(SandboxSetting.all.flatMap { [$0.key] + $0.aliases })
        if let unknown = object.keys.sorted().first(where: { !names.contains($0) }) {
            let shown = TerminalText.sanitized(unknown, limit: 100)
            throw Refusal(setting: shown, message: "\(shown) is not a setting; GET /_sandbox/settings lists them")
        }
        var values: [Named] = []
        for setting in SandboxSetting.all {
            guard let name = ([setting.key] + setting.aliases).first(where: { object[$0] != nil }) else { continue }
            guard let value = object[name]?.value(for: setting.kind) else {
                throw Refusal(setting: name, message: setting.typeProblem(name: name))
            }
            values.append((setting, name, value, nil))
        }
        try self.init(values)
    }

    /// Applies every change and returns the keys changed, sorted.
    public func apply(to configuration: inout SandboxConfiguration) -> [String] {
        for (setting, value) in changes { setting.apply(value, to: &configuration) }
        return changes.map { $0.setting.key }.sorted()
    }
}

/// A member of a settings body: a boolean, a number, an array of strings, or anything else.
private enum JSONValue: Decodable {
    case flag(Bool)
    case number(Double)
    case strings([String])
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let strings = try? container.decode([String].self) {
            self = .strings(strings)
        } else {
            self = .other
        }
    }

    /// The value as a setting of `kind` takes it, or `nil` when it is of another type.
    func value(for kind: SandboxSetting.Kind) -> SandboxSetting.Value? {
        switch (kind, self) {
        case (.number, .number(let number)): .number(number)
        case (.flag, .flag(let flag)): .flag(flag)
        case (.tokens, .strings(let tokens)): .tokens(tokens)
        default: nil
        }
    }
}
