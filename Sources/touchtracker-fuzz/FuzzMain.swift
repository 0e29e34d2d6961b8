// `touchtracker-fuzz`: the fuzz targets of Sources/FuzzTargets as a program (docs/fuzzing.md).
// Built normally, it runs files through a target and says what the parser made of each: how a
// crash file is replayed under a debugger. Built with `-sanitize=fuzzer,address -DFUZZING`
// (scripts/fuzz), it is libFuzzer on the target named first.
#if canImport(Glibc)
import Glibc
#endif
import FuzzTargets
#if FUZZING
import CLibFuzzer
#endif

func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func listTargets() {
    for target in FuzzTarget.all { print("\(target.name)\t\(target.maxLength)\t\(target.summary)") }
}

func usage() -> Never {
    #if FUZZING
    printError("usage: touchtracker-fuzz TARGET [LIBFUZZER-OPTION...] [CORPUS-FOLDER-OR-FILE...]")
    #else
    printError("usage: touchtracker-fuzz TARGET FILE-OR-FOLDER...")
    #endif
    printError("       touchtracker-fuzz --list")
    printError("targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
    exit(2)
}

#if FUZZING
/// Names the target for libFuzzer's copies of itself (-fork, -jobs, -minimize_crash), which it
/// starts with the arguments it was given, less the target.
let targetVariable = "TOUCHTRACKER_FUZZ_TARGET"

/// The target, for the callback: a C function pointer captures nothing.
nonisolated(unsafe) var selected: FuzzTarget?

/// One input, as libFuzzer calls it; a broken check is a crash for it to save.
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try selected!.run(bytes)
    } catch {
        fatalError("\(selected!.name): \(error)")
    }
    return 0
}

@main
enum Fuzzer {
    /// libFuzzer on the target named first (or in $TOUCHTRACKER_FUZZ_TARGET), with the target's
    /// -max_len unless one is given.
    static func main() {
        var arguments = CommandLine.arguments
        if arguments.dropFirst().first == "--list" { return listTargets() }
        if arguments.count > 1, let target = FuzzTarget.named(arguments[1]) {
            selected = target
            arguments.remove(at: 1)
            setenv(targetVariable, target.name, 1)
        } else if let name = getenv(targetVariable).map({ String(cString: $0) }), let target = FuzzTarget.named(name) {
            selected = target
        } else {
            usage()
        }
        if !arguments.contains(where: { $0.hasPrefix("-max_len=") }) {
            arguments.insert("-max_len=\(selected!.maxLength)", at: 1)
        }
        // libFuzzer keeps argv for the whole run: never freed.
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        for (i, argument) in arguments.enumerated() { argv[i] = strdup(argument) }
        argv[arguments.count] = nil
        var argc = Int32(arguments.count)
        var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        exit(LLVMFuzzerRunDriver(&argc, &pointer, testOneInput))
    }
}
#else
@main
enum CorpusReplayer {
    /// Runs every file named, or found in a folder named, through the target; exits 1 when a
    /// check failed on any.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" { return listTargets() }
        guard arguments.count >= 2, let target = FuzzTarget.named(arguments[0]) else { usage() }
        var failed = false
        for path in arguments.dropFirst().flatMap(FuzzCorpus.files) {
            guard let bytes = FuzzCorpus.read(path) else {
                printError("\(path): cannot read")
                failed = true
                continue
            }
            do {
                switch try target.run(bytes) {
                case .accepted: print("\(path): accepted")
                case .rejected(let reason): print("\(path): rejected: \(reason)")
                }
            } catch {
                print("\(path): FAILED: \(error)")
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }
}
#endif
