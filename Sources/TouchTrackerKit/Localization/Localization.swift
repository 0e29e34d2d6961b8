// The user's language, through glibc's gettext: the locale from the environment, and the folder
// of compiled catalogues (`<dir>/<lang>/LC_MESSAGES/touchtracker.mo`). Nothing here is ever
// fatal: with no catalogue, no such language or no usable locale, every string stays English.
//
// Where the catalogues are, first found wins (docs/translations.md):
// 1. `$TOUCHTRACKER_LOCALEDIR`, when set and not empty;
// 2. `<prefix>/share/locale` beside an installed `<prefix>/bin/touchtracker`;
// 3. in a development build (the executable somewhere under a `.build` folder, as `swift run`,
//    the tests and scripts/run have it), `.build/meson-helpers/po`, where scripts/setup's meson
//    build compiles them;
// 4. else glibc's own default (`/usr/share/locale`).
#if canImport(Glibc)
import Glibc
#endif
import CShims

public enum Localization {
    /// The gettext text domain: the catalogues' file name without `.mo`.
    public static let domain = "touchtracker"
    /// Overrides where the catalogues are looked for.
    public static let directoryVariable = "TOUCHTRACKER_LOCALEDIR"
    /// Where meson compiles the catalogues in a development checkout, under `.build`.
    static let developmentFolder = "meson-helpers/po"

    /// What ``start(environment:executablePath:)`` did, for the verbose log.
    public struct Setup: Equatable, Sendable {
        /// The catalogue folder bound to the domain, or nil for glibc's default.
        public var directory: String?
        /// The messages locale in effect (e.g. `de_DE.UTF-8`, `C.UTF-8`).
        public var locale: String
        /// Set when the environment's locale is not installed: the language then taken from it
        /// and given to gettext through `LANGUAGE`.
        public var fallbackLanguage: String?
    }

    /// Sets the process's locale from the environment and points gettext at the catalogues. Call
    /// once, first thing: it changes process-wide state (the C locale, maybe `LANGUAGE`).
    @discardableResult
    public static func start(environment: (String) -> String? = DrawingLocation.environment,
                             executablePath: String? = currentExecutable()) -> Setup {
        var fallback: String?
        if setlocale(LC_ALL, "") == nil {
            // The user's locale is not generated on this system (common for zh_CN on a minimal
            // install). A UTF-8 C locale still lets gettext follow LANGUAGE, so the language
            // comes from the locale's name.
            setlocale(LC_ALL, "C.UTF-8")
            fallback = fallbackLanguage(environment: environment)
            if let fallback { setenv("LANGUAGE", fallback, 1) }
        } else if let language = environment("LANGUAGE"), !language.isEmpty,
                  let messages = setlocale(LC_MESSAGES, nil).map({ String(cString: $0) }),
                  messages == "C" || messages == "POSIX" {
            // gettext ignores LANGUAGE in the plain C locale; someone who sets it with no other
            // locale (LANGUAGE=de touchtracker) means it, and C.UTF-8 lets it count.
            setlocale(LC_ALL, "C.UTF-8")
        }
        // Numbers are read and written in the C form whatever the language: the drawing file's
        // reader uses strtod, which would take "1.5" as 1 in a German locale.
        setlocale(LC_NUMERIC, "C")
        let directory = catalogueDirectory(environment: environment, executablePath: executablePath,
                                           exists: { access($0, F_OK) == 0 })
        if let directory { bindtextdomain(domain, directory) }
        bind_textdomain_codeset(domain, "UTF-8")
        let locale = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        return Setup(directory: directory, locale: locale, fallbackLanguage: fallback)
    }

    /// The catalogue folder by the rules at the top of this file; nil leaves glibc's default.
    static func catalogueDirectory(environment: (String) -> String?, executablePath: String?,
                                   exists: (String) -> Bool) -> String? {
        if let folder = environment(directoryVariable), !folder.isEmpty { return folder }
        guard let executable = executablePath, executable.hasPrefix("/") else { return nil }
        let parts = executable.split(separator: "/").map(String.init)
        // <prefix>/bin/touchtracker -> <prefix>/share/locale
        if parts.count >= 2, parts[parts.count - 2] == "bin" {
            let installed = "/" + (parts.dropLast(2) + ["share", "locale"]).joined(separator: "/")
            if exists(installed) { return installed }
        }
        // <checkout>/.build/<triple>/debug/touchtracker -> <checkout>/.build/meson-helpers/po; a
        // second build folder (.build-asan) shares the catalogues meson made under .build
        if let build = parts.lastIndex(where: { $0 == ".build" || $0.hasPrefix(".build-") }) {
            let development = "/" + (parts[..<build] + [".build", developmentFolder]).joined(separator: "/")
            if exists(development) { return development }
        }
        return nil
    }

    /// The language part of the first set of LC_ALL, LC_MESSAGES, LANG (`zh_CN.UTF-8` ->
    /// `zh_CN`), unless LANGUAGE is set already or the locale is C or POSIX.
    static func fallbackLanguage(environment: (String) -> String?) -> String? {
        if let language = environment("LANGUAGE"), !language.isEmpty { return nil }
        guard let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap(environment).first(where: { !$0.isEmpty })
        else { return nil }
        let language = String(name.prefix { $0 != "." && $0 != "@" })
        if language.isEmpty || language == "C" || language == "POSIX" { return nil }
        return language
    }

    /// The running executable, symbolic links resolved (nil if /proc is not mounted).
    public static func currentExecutable() -> String? {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `msgid` in the user's language, or `msgid` itself when there is no translation.
    public static func translate(_ msgid: String) -> String {
        guard !msgid.isEmpty else { return msgid }  // "" would give the catalogue's header
        return msgid.withCString { id in
            guard let text = dgettext(domain, id), text != id else { return msgid }
            return String(cString: text)
        }
    }

    /// Puts `values` into the `{name}` placeholders of a translated template. Translations may
    /// reorder the placeholders; one that is not in `values` stays as written.
    public static func fill(_ template: String, _ values: KeyValuePairs<String, String>) -> String {
        var result = "", rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"),
                  let value = values.first(where: { $0.key == rest[rest.index(after: open)..<close] })?.value
            else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
