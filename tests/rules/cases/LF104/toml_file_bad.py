"""A TOML document shared by every project, read and written back through a TOMLFile."""
from pathlib import Path

from tomlkit.toml_file import TOMLFile


def use_env(home: Path, project: str, version: str) -> None:
    envs_file = TOMLFile(home / "envs.toml")
    envs = envs_file.read()
    envs[project] = {"version": version}
    envs_file.write(envs)


def show_env(home: Path, project: str) -> str:
    envs_file = TOMLFile(home / "envs.toml")
    return envs_file.read().get(project, {}).get("version", "")
