"""setuptools build step for Papershelf (the metadata is in pyproject.toml).

The default theme lives at the top of the repository, in ``templates/`` and ``static/``
(where the project layout wants it and where ``make serve`` edits it). ``build_py`` copies
both into the wheel as ``generator/theme/templates`` and ``generator/theme/static``, so an
installed ``papershelf`` builds a catalog with no checkout (``generator.options`` looks
there first). Editable installs skip the copy: they read the checkout's folders.
MANIFEST.in puts the same folders in the sdist, so a wheel built from it has them too.
"""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_py import build_py

THEME = ("templates", "static")


class BuildWithTheme(build_py):
    """``build_py`` plus the default theme under ``generator/theme/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in THEME:
            self.copy_tree(name, self._theme_target(name), preserve_symlinks=False)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        for name in THEME:
            for folder, _, files in os.walk(name):
                rel = os.path.relpath(folder, name)
                outputs += [os.path.normpath(os.path.join(self._theme_target(name), rel, f)) for f in files]
        return outputs

    def _theme_target(self, name: str) -> str:
        return os.path.join(self.build_lib, "generator", "theme", name)


setup(cmdclass={"build_py": BuildWithTheme})
