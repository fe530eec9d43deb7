"""health-analyzer's release binary, carried in a wheel; `health-analyzer` on the PATH runs it."""

import os

BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "health-analyzer")
