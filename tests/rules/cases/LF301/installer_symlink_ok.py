"""A setup command that installs links: a completions file and skill
directories, replaced when they point elsewhere. The symlink's failure is
handled (a copy instead, a Windows hint), but nothing reads an owner or an age
back from the link: it is the installed product, not a lock."""
import os
import shutil
from datetime import datetime
from pathlib import Path


def install_completions(completions_file: Path, source_file: Path) -> None:
    try:
        completions_file.symlink_to(source_file)
    except OSError:
        shutil.copy2(source_file, completions_file)


def refresh_completions(completions_file: Path, source_file: Path) -> bool:
    if completions_file.is_symlink():
        if completions_file.resolve() == source_file.resolve():
            return False
        completions_file.unlink()
        install_completions(completions_file, source_file)
        return True
    if completions_file.read_text() == source_file.read_text():
        completions_file.unlink()
        install_completions(completions_file, source_file)
    return True


def link_skills(source: Path, target_dir: Path) -> list:
    linked = []
    backup_dir = None
    for name in ("rules", "skills", "hooks"):
        source_path = source / name
        target_path = target_dir / name
        if target_path.exists() and not target_path.is_symlink():
            if backup_dir is None:
                backup_dir = target_dir / "backups" / datetime.now().strftime("%Y%m%d-%H%M%S")
                backup_dir.mkdir(parents=True, exist_ok=True)
            shutil.copytree(target_path, backup_dir / name)
            shutil.rmtree(target_path)
        elif target_path.is_symlink():
            target_path.unlink()
        try:
            os.symlink(source_path, target_path)
            linked.append(name)
        except OSError as e:
            if os.name == "nt":
                raise RuntimeError(f"enable Developer Mode to link {name}: {e}") from e
            raise
    return linked
