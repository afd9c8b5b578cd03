/// An ordered list of HTTP header fields with case-insensitive look-up.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as it appears on the wire.
    public struct Field: Sendable, Hashable {
        /// The field name, as given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates headers from fields in wire order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from name–value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, or `nil`.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the named field, in wire order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of that name with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of that name.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Iterates the fields in wire order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension String {
    /// Compares ASCII case-insensitively, as HTTP field names are compared.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        self.utf8.count == other.utf8.count
            && zip(self.utf8, other.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    /// Whether the string starts with `prefix`, compared ASCII case-insensitively, with no copy.
    package func caseInsensitiveHasPrefix(_ prefix: String) -> Bool {
        self.utf8.starts(with: prefix.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }
}

private func asciiLowercase(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}
