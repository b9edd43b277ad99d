"""A TOML document read through a property, handed to the caller's `with`
body to change, and written back with no lock (poetry's
FileConfigSource.secure): two processes setting different keys lose one."""
from contextlib import contextmanager

from tomlkit import document
from tomlkit.toml_file import TOMLFile


class FileConfigSource:
    def __init__(self, file: TOMLFile) -> None:
        self._file = file

    @property
    def file(self) -> TOMLFile:
        return self._file

    def add_property(self, key, value):
        with self.secure() as config:
            config[key] = value

    @contextmanager
    def secure(self):
        if self.file.exists():
            config = self.file.read()
        else:
            config = document()
        yield config
        self.file.write(config)

    @contextmanager
    def snapshot(self):
        """Not an update: the value written back is a fresh document."""
        config = self.file.read()
        yield config
        config = document()
        self.file.write(config)
