"""Temps in a directory the function just made for itself: an exclusive mkdir
(it raises when the directory exists) before the write, or a mkdtemp. Only one
writer is ever in such a directory, so the fixed temp name is not shared."""
import json
import os
import tempfile
from pathlib import Path


def save_work_order(root: Path, order_id: str, data: dict) -> Path:
    target_dir = root / order_id
    if target_dir.exists():
        raise FileExistsError(order_id)
    target_dir.mkdir(parents=True, exist_ok=False)
    target_path = target_dir / "work_order.json"
    tmp_path = target_dir / f".{target_path.name}.tmp"
    tmp_path.write_text(json.dumps(data), encoding="utf-8")
    tmp_path.replace(target_path)
    return target_path


def create_run(runs: str, run_id: str, meta: dict) -> str:
    run_dir = os.path.join(runs, run_id)
    os.mkdir(run_dir)
    meta_path = os.path.join(run_dir, "meta.json")
    tmp = meta_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(meta, f)
    os.replace(tmp, meta_path)
    return meta_path


def stage_bundle(payload: bytes) -> str:
    stage = tempfile.mkdtemp(prefix="bundle-")
    bundle = os.path.join(stage, "bundle.bin")
    tmp = bundle + ".tmp"
    with open(tmp, "wb") as f:
        f.write(payload)
    os.replace(tmp, bundle)
    return bundle
