"""The build of the solver's compiled core (everything else is in pyproject.toml)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "app.solver._core",
            ["app/solver/_core.c"],
            extra_compile_args=["-O3", "-Wall", "-Wextra", "-pthread"],
            extra_link_args=["-pthread"],
        )
    ]
)
