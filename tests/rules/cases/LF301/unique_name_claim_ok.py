"""An exclusive create that claims a fresh name for a new document: when the
name is taken, the handler moves on to another one. No lock is taken and
nobody waits for a holder, so deleting a document later removes no lock."""
import os
from pathlib import Path


class Store:
    def __init__(self, root):
        self.root = Path(root)

    def path_for(self, doc_id):
        return self.root / f"{doc_id}.md"

    def reserve(self, slug):
        candidate = slug
        for i in range(2, 1000):
            path = self.path_for(candidate)
            try:
                fd = os.open(str(path), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
                os.close(fd)
                return candidate
            except FileExistsError:
                candidate = f"{slug}_{i}"
        raise RuntimeError("no free name")

    def delete(self, doc_id):
        path = self.path_for(doc_id)
        if not path.exists():
            return False
        path.unlink()
        return True
