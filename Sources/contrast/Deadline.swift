import ArgumentParser
import Dispatch
import Foundation
import PaletteAudit
import TokenSources
import Synchronization

/// `--deadline SECONDS` of the commands that read inputs (audit, report, init, derive, matrix):
/// a bound on what a pull request's token files can cost a CI runner.
///
/// The deadline is the service's request deadline, for a run: every read stops at its next step
/// once it passes (``ReadBudget/Deadline``, the mechanism that stops a request's read), and the
/// command then stops with exit 2, naming the deadline and the file and place it stopped at,
/// before writing anything. Work no read budget reaches (an audit's checks, a matrix's pairs,
/// a slow disk) is stopped a second after the deadline by a watchdog, which says what the
/// command was doing and leaves no half-written file behind.
struct DeadlineOption: ParsableArguments {
    @Option(help: ArgumentHelp("Stop with exit 2 when the run takes longer than SECONDS, naming the file it was reading (off by default; in CI, a bound on what a pull request's files can cost, e.g. --deadline 300).", valueName: "seconds"))
    var deadline: Double?

    func validate() throws {
        if let deadline, !(deadline > 0 && deadline.isFinite) {
            throw ValidationError("--deadline must be a positive number of seconds, not \(deadline)")
        }
    }

    /// Runs `body` under the deadline (none when the option is not given). `doing` says what
    /// the command does first ("reading palettes/"); the body says when that changes.
    func run<T>(_ doing: String, _ body: (RunDeadline?) throws -> T) throws -> T {
        guard let deadline else { return try body(nil) }
        let run = RunDeadline(seconds: deadline, doing: doing)
        defer { run.finish() }
        return try ReadBudget.withDeadline(run.deadline) { try body(run) }
    }
}

/// One run's deadline: the reads' (``ReadBudget/Deadline``) and the watchdog behind it.
final class RunDeadline: Sendable {
    let deadline: ReadBudget.Deadline
    /// What the command is doing, for the watchdog's message.
    private let doing: Mutex<String>
    /// Set once by whoever ends the run: the command finishing, or the watchdog.
    private let ended = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// How long past the deadline the watchdog waits for the reads to stop and the command
    /// to say so itself.
    static let grace = 1.0

    init(seconds: Double, doing: String) {
        deadline = ReadBudget.Deadline(seconds: seconds, name: "the --deadline of \(Self.format(seconds)) s")
        self.doing = Mutex(doing)
        Thread.detachNewThread { [self] in watch(seconds) }
    }

    /// The command goes on to `what` ("auditing palettes/").
    func now(_ what: String) { doing.withLock { $0 = what } }

    /// Throws the deadline's error when it has passed: the first read it stopped (its file,
    /// place and what was being read), or what the command was doing.
    func check() throws(InputError) {
        guard deadline.hasPassed else { return }
        throw InputError(.deadlinePassed, message)
    }

    var message: String {
        if let stop = deadline.firstStop { return "\(stop); the run was stopped and nothing was written" }
        return "\(deadline.name) passed while \(doing.withLock { $0 }); the run was stopped"
    }

    /// The command is done (or failed): the watchdog stands down. When it has already fired,
    /// the process is exiting; this thread waits for that.
    func finish() {
        if ended.exchange(true, ordering: .acquiringAndReleasing) {
            while true { pause() }
        }
        finished.signal()
    }

    private func watch(_ seconds: Double) {
        let wait = min(seconds + Self.grace, 1e9)
        guard finished.wait(timeout: .now() + wait) == .timedOut else { return }
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // The command did not stop on its own: it is in work no read budget reaches.
        Terminal.removePartialOutput()
        let text = "\(Terminal.errorPrefix)\(message)\n"  // as main.swift prints a thrown InputError
        text.utf8CString.withUnsafeBufferPointer { bytes in _ = write(2, bytes.baseAddress, bytes.count - 1) }
        _exit(2)
    }

    /// `30`, `0.5`, `0.000001`: as given, without a trailing `.0`.
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : "\(seconds)"
    }
}
