#!/usr/bin/env python3
"""A racing local process for the tests: exchanges two paths atomically in a tight loop.

Usage: swapper.py A B   (A and B both exist; either may be a symlink)

Each exchange is one renameat2(RENAME_EXCHANGE) call, so at every instant each name holds one of
the two things, never neither. Prints "ready" after the first exchange. On SIGTERM it stops and,
if it had exchanged an odd number of times, exchanges once more: both names are left as found.
If one of the names is gone (the process it races moved it away), it stops and says "gone".
"""
import ctypes
import errno
import os
import signal
import sys

AT_FDCWD = -100
RENAME_EXCHANGE = 2

libc = ctypes.CDLL(None, use_errno=True)
renameat2 = libc.renameat2
renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]

a = os.fsencode(sys.argv[1])
b = os.fsencode(sys.argv[2])
stop = False


def on_term(_signum, _frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)


def exchange():
    if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err == errno.ENOENT:
        return False
    sys.stderr.write(f"renameat2: {os.strerror(err)}\n")
    sys.exit(1)


count = 0
gone = False
while not stop:
    if not exchange():
        gone = True
        break
    count += 1
    if count == 1:
        sys.stdout.write("ready\n")
        sys.stdout.flush()
if gone:
    # SIGTERM is held back while waiting for it: a signal.pause() after a `not stop` check would
    # wait forever for a SIGTERM that came between the two (its handler runs only after pause).
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
    sys.stdout.write("gone\n")
    sys.stdout.flush()
    # Looked at again now and then: a SIGTERM delivered just before the mask was taken has its
    # handler run late, and never becomes pending.
    while not stop and signal.sigtimedwait([signal.SIGTERM], 0.5) is None:
        pass
elif count % 2 == 1:
    exchange()
    count += 1
sys.stdout.write(f"exchanges {count}\n")
