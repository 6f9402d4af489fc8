import ArgumentParser
import PaletteAudit
import TokenSources
import Foundation

// Exit codes are part of the interface: 0 nothing to fail on, 1 failures or regressions,
// 2 invalid input or usage. ArgumentParser's own usage errors (64) are folded into 2.
do {
    var command = try Contrast.parseAsRoot()
    try command.run()
} catch let exit as ExitCode {
    Foundation.exit(exit.rawValue)
} catch {
    let code = Contrast.exitCode(for: error)
    let message = Contrast.fullMessage(for: error)
    if code == .success {
        if !message.isEmpty { print(message) }
        Foundation.exit(0)
    }
    // A coded error is one line by construction: what it quotes (a file's name, a token's) cannot
    // break it, color the terminal or start a line a CI runner reads as a command. Usage errors
    // are several lines of the tool's own text.
    let text = message.isEmpty ? "\(error)" : message
    let shown = error is any OneLineError ? text.terminalSafe : text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }.joined(separator: "\n")
    FileHandle.standardError.write(Data(shown.utf8 + [0x0A]))
    Foundation.exit(2)
}
