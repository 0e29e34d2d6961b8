/// How XML names become Swift names.
///
/// - Interfaces: UpperCamelCase of the `_`-separated words (`zwp_tablet_tool_v2` → `ZwpTabletToolV2`).
/// - Requests, events, arguments, enum entries: lowerCamelCase (`set_app_id` → `setAppId`).
/// - Enum entries starting with a digit get a leading underscore (`90` → `_90`).
/// - Swift keywords are escaped with backticks at the declaration and every use.
/// - Enum types: UpperCamelCase of the enum name, except names that would shadow a Swift type or
///   keyword, or a member of the generated class, inside the class body (`Error`, `Type`, `Protocol`,
///   `Self`, `Event`, ...): those get the suffix `Code` (`error` → `ErrorCode`, `type` → `TypeCode`).
/// - Requests whose name collides with a member every generated class has (`proxy`, `version`,
///   `isAlive`, `onEvent`, ...) get the suffix `Request` (`version` → `versionRequest`).
public enum Naming {
    static func words(_ name: String) -> [Substring] {
        name.split(separator: "_", omittingEmptySubsequences: true)
    }

    private static func capitalized(_ word: Substring) -> String {
        guard let first = word.first else { return "" }
        return first.uppercased() + word.dropFirst()
    }

    /// `wl_surface` → `WlSurface`.
    public static func upperCamel(_ name: String) -> String {
        let result = words(name).map(capitalized).joined()
        return result.isEmpty ? "_" : result
    }

    /// `set_app_id` → `setAppId`; a leading digit gets an underscore (`90` → `_90`).
    public static func lowerCamel(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "_" }
        let result = first.lowercased() + parts.dropFirst().map(capitalized).joined()
        if result.first!.isNumber { return "_" + result }
        return result
    }

    /// The Swift class name of an interface.
    public static func className(_ interface: String) -> String { upperCamel(interface) }

    /// Names an enum type may not take inside a generated class body.
    static let reservedTypeNames: Set<String> = [
        "Error", "Type", "Protocol", "Self", "Any", "AnyObject", "Event", "String", "Int32", "UInt32",
        "UInt8", "Double", "Bool", "Array", "Optional", "Void", "Never", "OpaquePointer",
        "UnsafePointer", "UnsafeMutablePointer", "Unmanaged", "WaylandObject", "WaylandProxy",
    ]

    /// The Swift type name of an enum nested in its interface's class.
    public static func enumTypeName(_ name: String) -> String {
        let base = upperCamel(name)
        return reservedTypeNames.contains(base) ? base + "Code" : base
    }

    /// Members every generated class has; a request with one of these names gets `Request` appended.
    static let reservedMemberNames: Set<String> = [
        "proxy", "version", "isAlive", "onEvent", "interface", "interfaceName", "maxVersion",
        "description", "init", "deinit", "self", "Type", "dynamicType",
    ]

    public static func methodName(_ request: String) -> String {
        let base = lowerCamel(request)
        return reservedMemberNames.contains(base) ? base + "Request" : base
    }

    /// Reserved words that must be written with backticks when used as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "some", "any", "Type", "Protocol", "package",
    ]

    /// An identifier, escaped with backticks when it is a keyword.
    public static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// An argument label in a call: every keyword but these three may stand there bare, and
    /// Swift warns when others are escaped.
    public static func callLabel(_ identifier: String) -> String {
        ["inout", "var", "let"].contains(identifier) ? "`\(identifier)`" : identifier
    }
}
