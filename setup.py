"""Builds the website before the Python package, so `pip install .` ships it (see build_ui.py)."""

import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build_ui  # noqa: E402


class BuildWithWebsite(build_py):
    def run(self) -> None:
        build_ui.build()
        super().run()


setup(cmdclass={"build_py": BuildWithWebsite})
