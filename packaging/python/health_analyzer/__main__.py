"""The console entry point: replaces this Python process with the binary (os.execv), so the
arguments, standard streams, exit code and signals (^C, SIGTERM) are the binary's own, unchanged:
no Python process stays in between to forward or translate them."""

import os
import sys

from health_analyzer import BINARY


def main():
    try:
        os.execv(BINARY, ["health-analyzer"] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write("health-analyzer: cannot run %s: %s\n" % (BINARY, e.strerror))
        return 127


if __name__ == "__main__":
    sys.exit(main())
