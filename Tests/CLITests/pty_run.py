"""Runs a command on a pseudo-terminal of a given width and copies what it printed to stdout.

Usage: pty_run.py COLUMNS PROGRAM [ARGUMENT ...]

The terminal size is set on the child's side before the program starts, so the program sees a real terminal of
COLUMNS columns (TIOCGWINSZ) and no COLUMNS variable. With PTY_RESIZE=COLUMNS:TEXT in the environment, the terminal
is resized to COLUMNS as soon as the program has printed TEXT, as a window would be (the program gets SIGWINCH), and
"[pty: resized]" marks the moment in the copy. Exits with the program's status.
"""

import fcntl
import os
import pty
import struct
import sys
import termios


def main() -> int:
    columns = int(sys.argv[1])
    program = sys.argv[2:]
    resize = os.environ.pop("PTY_RESIZE", None)
    resize_to, resize_after = (int(resize.split(":", 1)[0]), resize.split(":", 1)[1].encode()) if resize else (0, None)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        os.environ.pop("COLUMNS", None)
        os.execv(program[0], program)
    output = bytearray()
    while True:
        if resize_after is not None and resize_after in output:
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, resize_to, 0, 0))
            output += b"\n[pty: resized]\n"
            resize_after = None
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(bytes(output))
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
