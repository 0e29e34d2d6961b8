// The translation catalogues in po/: the template has every string the code and the desktop entry
// mark, and each language's catalogue is valid, complete and keeps the placeholders.
import CompositorHarness
import Foundation
import Testing

@Suite("Translation catalogues")
struct CatalogueTests {
    /// `{name}` placeholders, in order.
    static func placeholders(_ text: String) -> [String] {
        var found: [String] = [], rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            found.append(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    @Test("po/touchtracker.pot holds exactly the strings the code (tr) and the desktop entry mark for translation")
    func templateIsCurrent() throws {
        let fresh = NSTemporaryDirectory() + "tt-pot-\(getpid()).pot"
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        // As `ninja touchtracker-pot` runs it (po/meson.build).
        let extract = try runCommand(["xgettext", "--package-name=touchtracker", "-f", POFile.path("POTFILES"),
                                      "-D", HarnessPaths.packageRoot + "/meson-helpers", "-k_", "--keyword=tr",
                                      "--from-code=UTF-8", "--add-comments=Translators:", "-o", fresh])
        #expect(extract.status == 0, "\(extract.output)")
        let marked = try POFile(contentsOf: fresh).messages.map(\.msgid)
        let template = try POFile("touchtracker.pot").messages.map(\.msgid)
        #expect(marked.count > 10, "xgettext found only \(marked)")
        #expect(Set(marked).subtracting(template).isEmpty,
                "missing from po/touchtracker.pot (run ninja -C .build/meson-helpers touchtracker-pot): \(Set(marked).subtracting(template))")
        #expect(Set(template).subtracting(marked).isEmpty,
                "no longer in the code, still in po/touchtracker.pot: \(Set(template).subtracting(marked))")
    }

    @Test("LINGUAS lists each .po in po/: Chinese, German, Spanish and a right-to-left language at least")
    func languagesAreListed() throws {
        let languages = try catalogueLanguages()
        let files = try FileManager.default.contentsOfDirectory(atPath: HarnessPaths.packageRoot + "/po")
            .filter { $0.hasSuffix(".po") }.map { String($0.dropLast(3)) }
        #expect(Set(languages) == Set(files))
        #expect(Set(["zh_CN", "de", "es"]).isSubset(of: languages))
        #expect(!Set(["he", "ar", "fa", "ur"]).isDisjoint(with: languages))
    }

    @Test("Every catalogue passes msgfmt --check and translates every string of the template, keeping its placeholders")
    func cataloguesAreCompleteAndValid() throws {
        let template = try POFile("touchtracker.pot").messages.map(\.msgid)
        for language in try catalogueLanguages() {
            let check = try runCommand(["msgfmt", "--check", "--statistics", "-o", "/dev/null", POFile.path(language + ".po")])
            #expect(check.status == 0, "\(language).po: \(check.output)")
            #expect(!check.output.contains("fuzzy") && !check.output.contains("untranslated"), "\(language).po: \(check.output)")
            let catalogue = try POFile(language + ".po")
            #expect(catalogue.messages.map(\.msgid) == template, "\(language).po is not merged with the template (ninja touchtracker-update-po)")
            for message in catalogue.messages {
                #expect(!message.msgstr.isEmpty && !message.isFuzzy, "\(language).po: \"\(message.msgid)\" is not translated")
                #expect(Set(Self.placeholders(message.msgstr)) == Set(Self.placeholders(message.msgid)),
                        "\(language).po: \"\(message.msgstr)\" does not keep the placeholders of \"\(message.msgid)\"")
            }
        }
    }

    @Test("Placeholders are found in order, and text without braces has none")
    func placeholderScanning() {
        #expect(Self.placeholders("Exported {png} and {svg} to {folder}") == ["{png}", "{svg}", "{folder}"])
        #expect(Self.placeholders("Delete").isEmpty)
    }
}
