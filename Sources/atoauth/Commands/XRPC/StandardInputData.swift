import Foundation

/// Whether standard input holds data nobody asked for, such as `echo '{…}' | atoauth xrpc …` without `--input -`.
enum StandardInputData {
    /// `true` when standard input is a pipe or socket with bytes ready to read, or a non-empty regular file; never
    /// for a terminal, and nothing is read.
    static var isWaiting: Bool {
        guard isatty(STDIN_FILENO) == 0 else { return false }
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0 else { return false }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return status.st_size > lseek(STDIN_FILENO, 0, SEEK_CUR)
        case S_IFIFO, S_IFSOCK:
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLIN) != 0 else { return false }
            var available: CInt = 0
            return ioctl(STDIN_FILENO, UInt(FIONREAD), &available) == 0 && available > 0
        default:
            return false
        }
    }
}
