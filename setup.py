"""The build of the solver's compiled core (everything else is in pyproject.toml)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "app.solver._core",
            ["app/solver/_core.c"],
            # Loops stay loops: GCC would turn the short copies of a column in 8-byte words
            # (`copy_words`) into `rep movsq`, slow to start for a word or two (a fifth of
            # the search loop's CPU samples on skill draw 1 deal 245, for `unpack`).
            extra_compile_args=[
                "-O3",
                "-fno-tree-loop-distribute-patterns",
                "-Wall",
                "-Wextra",
                "-pthread",
            ],
            extra_link_args=["-pthread"],
        )
    ]
)
