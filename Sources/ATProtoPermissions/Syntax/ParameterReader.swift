/// Reads the parameters of one resource: only the names it defines, the positional value or its named form but
/// not both, and single-valued parameters given once (atproto.com/specs/permission, Scope String Syntax).
struct ParameterReader {
    let syntax: ScopeTokenSyntax
    /// The name of the parameter that the positional part stands for, such as `collection` for `repo`.
    let positionalName: String

    /// Checks the parameter names against `names` (which includes the positional parameter's name).
    init(_ syntax: ScopeTokenSyntax, positional positionalName: String, names: [String]) throws(PermissionError) {
        for parameter in syntax.parameters where !names.contains(parameter.name) {
            throw .unknownParameter(syntax.token, syntax.resource, parameter.name)
        }
        if syntax.positional != nil, syntax.parameters.contains(where: { $0.name == positionalName }) {
            throw .conflictingParameters(
                syntax.token,
                "“\(positionalName)” is given both after the colon and as a parameter"
            )
        }
        self.syntax = syntax
        self.positionalName = positionalName
    }

    /// The token being read.
    var token: String { syntax.token }

    /// Every value of `name`; for the positional parameter, the positional value when there is one.
    func values(_ name: String) -> [String] {
        if name == positionalName, let positional = syntax.positional { return [positional] }
        return syntax.parameters.filter { $0.name == name }.map(\.value)
    }

    /// The one value of `name`, or `nil` when absent; throws when it is repeated.
    func single(_ name: String) throws(PermissionError) -> String? {
        let all = values(name)
        guard all.count <= 1 else { throw .repeatedParameter(token, name) }
        return all.first
    }

    /// The values of `name`, each converted by `convert`; throws when one does not convert, or when there are none
    /// and `required` is set.
    func values<Value>(
        _ name: String,
        required: Bool,
        expected: String,
        _ convert: (String) -> Value?
    ) throws(PermissionError) -> [Value] {
        let all = values(name)
        if all.isEmpty, required { throw .missingParameter(token, syntax.resource, name) }
        var converted: [Value] = []
        for text in all {
            guard let value = convert(text) else { throw .invalidValue(token, name, text, expected: expected) }
            converted.append(value)
        }
        return converted
    }

    /// The one value of `name` converted by `convert`, or `nil` when absent and not `required`.
    func single<Value>(
        _ name: String,
        required: Bool,
        expected: String,
        _ convert: (String) -> Value?
    ) throws(PermissionError) -> Value? {
        guard let text = try single(name) else {
            if required { throw .missingParameter(token, syntax.resource, name) }
            return nil
        }
        guard let value = convert(text) else { throw .invalidValue(token, name, text, expected: expected) }
        return value
    }
}
