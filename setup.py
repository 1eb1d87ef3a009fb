"""The package list for setuptools (the rest is in pyproject.toml): every package under
app/, plus the top-level templates/, static/ and migrations/ directories (alembic.ini
included), shipped inside the wheel as app/templates, app/static and app/migrations so that
an installed ``ludoteca`` finds them wherever it runs (app/config.py). In the repository
they stay where they are."""

from pathlib import Path

from setuptools import find_packages, setup

SHIPPED = {"templates": "app.templates", "static": "app.static", "migrations": "app.migrations"}

packages = find_packages(include=["app", "app.*"])
package_dir: dict[str, str] = {}
package_data = {"app.i18n": ["*.json"]}
for directory, package in SHIPPED.items():
    # every directory becomes a package of data (setuptools warns about directories it would
    # otherwise skip); caches and compiled files stay out
    for path in sorted([Path(directory), *Path(directory).rglob("*")]):
        if path.is_dir() and path.name != "__pycache__":
            name = ".".join([package, *path.relative_to(directory).parts])
            packages.append(name)
            package_dir[name] = path.as_posix()
            package_data[name] = ["*"]

setup(packages=packages, package_dir=package_dir, package_data=package_data,
      exclude_package_data={"": ["*.pyc"]})
