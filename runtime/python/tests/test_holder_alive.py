"""holder_alive: LF302's Python fix asks it whether the process a home-made
lock records is still the one that wrote it (lockrt.cjs's holderAliveSync
answers the same). True only for a live process on this host that started
before the lock was last written; False for anything it cannot tell, so the
module's age test decides as before. Real processes: a live child, a dead one,
one that started after the lock was written (a reused pid)."""
import os
import socket
import subprocess
import sys
import time

import pytest

from conftest import load_lockrt

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the start time is /proc's (Linux)")


@pytest.fixture(params=["python", "native"])
def lockrt(request, monkeypatch):
    return load_lockrt(request.param, monkeypatch)


@pytest.fixture
def child():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    time.sleep(0.05)
    yield proc
    proc.kill()
    proc.wait()


def record(path, text, age=0.0):
    path.write_text(text)
    if age:
        then = time.time() - age
        os.utime(str(path), (then, then))
    return path


@pytest.mark.parametrize("form", ["{pid}", "{pid}\n", "{pid}|1700000000.5|/tmp/x", '{{"pid": {pid}, "ts": 1}}',
                                  '{{"pid": "{pid}"}}', '{{"pid": {pid}, "hostname": "{host}"}}'])
def test_a_live_writer_is_the_holder(tmp_path, lockrt, child, form):
    time.sleep(1.1)  # the child's start, in whole seconds of boot time, is before the write
    lock = record(tmp_path / "a.lock", form.format(pid=child.pid, host=socket.gethostname()))
    assert lockrt.holder_alive(str(lock)) is True
    assert lockrt.holder_alive(lock) is True  # a Path too


def test_a_dead_writer_is_not(tmp_path, lockrt):
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert lockrt.holder_alive(str(record(tmp_path / "a.lock", str(proc.pid)))) is False


def test_a_process_started_after_the_write_is_another_under_a_reused_pid(tmp_path, lockrt, child):
    lock = record(tmp_path / "a.lock", str(child.pid), age=3600)
    assert lockrt.holder_alive(str(lock)) is False


@pytest.mark.parametrize("text", ["", "x", "0", "1", "4194305", "12.5", "1e3", "-5", '{"owner": 5}', "[1]",
                                  '{"pid": true}', '{"pid": 1.5}', "{not json"])
def test_no_pid_in_the_record_is_not_a_holder(tmp_path, lockrt, text):
    assert lockrt.holder_alive(str(record(tmp_path / "a.lock", text))) is False


def test_another_hosts_record_is_not_judged_here(tmp_path, lockrt, child):
    time.sleep(1.1)
    lock = record(tmp_path / "a.lock", '{"pid": %d, "host": "not-%s"}' % (child.pid, socket.gethostname()))
    assert lockrt.holder_alive(str(lock)) is False


def test_no_file_a_directory_a_symlink_or_a_large_file(tmp_path, lockrt, child):
    time.sleep(1.1)
    assert lockrt.holder_alive(str(tmp_path / "missing")) is False
    (tmp_path / "dir").mkdir()
    assert lockrt.holder_alive(str(tmp_path / "dir")) is False
    target = record(tmp_path / "target", str(child.pid))
    os.symlink(str(target), str(tmp_path / "link"))
    assert lockrt.holder_alive(str(target)) is True
    assert lockrt.holder_alive(str(tmp_path / "link")) is False  # never followed
    big = record(tmp_path / "big", str(child.pid) + " " * 5000)
    assert lockrt.holder_alive(str(big)) is False
