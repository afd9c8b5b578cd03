"""Runs a command on a pseudo-terminal of a given width and copies what it printed to stdout.

Usage: pty_run.py COLUMNS PROGRAM [ARGUMENT ...]

The terminal size is set on the child's side before the program starts, so the program sees a real terminal of
COLUMNS columns (TIOCGWINSZ) and no COLUMNS variable. Exits with the program's status.
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
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        os.environ.pop("COLUMNS", None)
        os.execv(program[0], program)
    output = bytearray()
    while True:
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
