# Marks the wheel as platform-specific (it carries a Linux binary) but independent of the Python
# version and ABI: tag py3-none-linux_<arch>, which auditwheel turns into manylinux_<glibc>_<arch>.
# The man page and the completions go into the environment's share/ folder as data files.
import glob

from setuptools import Distribution, setup

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel


class BinaryDistribution(Distribution):
    """Holds a binary: its files go to platlib (where auditwheel looks), not purelib."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", plat


setup(
    distclass=BinaryDistribution,
    cmdclass={"bdist_wheel": PlatformWheel},
    data_files=[
        ("share/man/man1", glob.glob("share/man/man1/*")),
        ("share/bash-completion/completions", glob.glob("share/bash-completion/completions/*")),
        ("share/zsh/site-functions", glob.glob("share/zsh/site-functions/*")),
        ("share/fish/vendor_completions.d", glob.glob("share/fish/vendor_completions.d/*")),
    ],
)
