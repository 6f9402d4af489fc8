import ArgumentParser
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
    FileHandle.standardError.write(Data((message.isEmpty ? "\(error)" : message).utf8 + [0x0A]))
    Foundation.exit(2)
}
