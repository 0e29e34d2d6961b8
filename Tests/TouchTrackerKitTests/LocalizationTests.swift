// Finding the translations and filling their placeholders (Localization). The process's own
// locale is left alone here (tests run side by side); the app's languages are checked end to end
// (EndToEndTests/TranslationTests).
import Testing
@testable import TouchTrackerKit

@Suite("Localization")
struct LocalizationTests {
    /// An environment from a dictionary.
    func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    @Test("TOUCHTRACKER_LOCALEDIR wins; an installed binary finds <prefix>/share/locale; a development build (.build or .build-NAME) finds .build/meson-helpers/po")
    func catalogueFolder() {
        let folders: Set<String> = ["/opt/tt/share/locale", "/home/me/src/tt/.build/meson-helpers/po"]
        func folder(_ values: [String: String], _ executable: String?) -> String? {
            Localization.catalogueDirectory(environment: environment(values), executablePath: executable,
                                            exists: folders.contains)
        }
        #expect(folder(["TOUCHTRACKER_LOCALEDIR": "/x/locale"], "/opt/tt/bin/touchtracker") == "/x/locale")
        #expect(folder(["TOUCHTRACKER_LOCALEDIR": ""], "/opt/tt/bin/touchtracker") == "/opt/tt/share/locale")
        #expect(folder([:], "/opt/tt/bin/touchtracker") == "/opt/tt/share/locale")
        #expect(folder([:], "/home/me/src/tt/.build/x86_64-unknown-linux-gnu/debug/touchtracker")
                == "/home/me/src/tt/.build/meson-helpers/po")
        #expect(folder([:], "/home/me/src/tt/.build/release/touchtracker") == "/home/me/src/tt/.build/meson-helpers/po")
        // A second build folder (the AddressSanitizer build) uses the same catalogues.
        #expect(folder([:], "/home/me/src/tt/.build-asan/x86_64-unknown-linux-gnu/debug/touchtracker")
                == "/home/me/src/tt/.build/meson-helpers/po")
    }

    @Test("With no catalogue folder to be found the lookup gives none (glibc's default), never an error")
    func noCatalogueFolder() {
        func folder(_ executable: String?) -> String? {
            Localization.catalogueDirectory(environment: environment([:]), executablePath: executable, exists: { _ in false })
        }
        #expect(folder("/usr/local/bin/touchtracker") == nil)
        #expect(folder("/home/me/src/tt/.build/debug/touchtracker") == nil)
        #expect(folder("touchtracker") == nil)
        #expect(folder(nil) == nil)
    }

    @Test("A locale that is not installed gives its language to gettext, unless LANGUAGE is set or it is C")
    func fallbackLanguage() {
        func language(_ values: [String: String]) -> String? { Localization.fallbackLanguage(environment: environment(values)) }
        #expect(language(["LANG": "zh_CN.UTF-8"]) == "zh_CN")
        #expect(language(["LC_ALL": "de_DE@euro", "LANG": "zh_CN.UTF-8"]) == "de_DE")
        #expect(language(["LC_MESSAGES": "es_ES.UTF-8", "LANG": "en_GB.UTF-8"]) == "es_ES")
        #expect(language(["LC_ALL": "", "LANG": "he_IL.UTF-8"]) == "he_IL")
        #expect(language(["LANGUAGE": "de", "LANG": "zh_CN.UTF-8"]) == nil)
        #expect(language(["LANG": "C.UTF-8"]) == nil)
        #expect(language(["LANG": "POSIX"]) == nil)
        #expect(language([:]) == nil)
    }

    @Test("A string with no translation comes back as it is; the empty string is not the catalogue's header")
    func untranslatedStringsStayEnglish() {
        #expect(Localization.translate("No such string in any catalogue") == "No such string in any catalogue")
        #expect(Localization.translate("") == "")
    }

    @Test("Placeholders are filled by name, in the translation's order; unknown ones and stray braces stay")
    func placeholders() {
        #expect(Localization.fill("{png} und {svg} nach {folder} exportiert", ["png": "a.png", "svg": "a.svg", "folder": "/p"])
                == "a.png und a.svg nach /p exportiert")
        #expect(Localization.fill("{b} before {a}", ["a": "1", "b": "2"]) == "2 before 1")
        #expect(Localization.fill("{unknown} and {a", ["a": "1"]) == "{unknown} and {a")
        #expect(Localization.fill("{a}{a}", ["a": "{a}"]) == "{a}{a}")
        #expect(Localization.fill("no placeholders", [:]) == "no placeholders")
    }

    @Test("The banners say what happened with every detail put in")
    func bannerTexts() {
        #expect(Strings.exported(png: "drawing.png", svg: "drawing.svg", folder: "/home/me/Pictures")
                == "Exported drawing.png and drawing.svg to /home/me/Pictures")
        #expect(Strings.cannotSave(name: "drawing.json", reason: "No space left on device")
                == "Cannot save drawing.json: No space left on device. Your drawing is kept; retrying…")
        #expect(Strings.damagedJournal(name: "drawing.json", problem: "line 7", keptAs: nil)
                == "The last changes to drawing.json could not all be restored (line 7).")
        #expect(Strings.damagedJournal(name: "drawing.json", problem: "line 7", keptAs: "j.json")
                == "The last changes to drawing.json could not all be restored (line 7). The journal was kept as j.json.")
    }
}
