"""C (lockrt_harness worker), Python and Node worker processes contending on ONE
lock and one JSON counter file: zero lost increments and keys for each
strategy; the same mix without the lock loses."""
import pytest

import contention

pytestmark = pytest.mark.skipif(
    not (contention.LIBRARY and contention.HARNESS and contention.NODE_ADDON and contention.NODE),
    reason="needs LOCKRT_TEST_LIBRARY, LOCKRT_TEST_HARNESS, LOCKRT_TEST_NODE_ADDON and node (run through ctest)")


def mix(per_lang, python_backend="native"):
    return ([contention.c_worker()] * per_lang + [contention.python_worker(python_backend)] * per_lang
            + [contention.node_worker()] * per_lang)


@pytest.mark.parametrize("strategy", ["oslock", "lockfile"])
def test_three_languages_2_procs_each_x100(tmp_path, strategy):
    counts, keys = contention.run(tmp_path, mix(2), 100, strategy)
    assert sorted({k.split("-")[0] for k in keys}) == ["c", "node", "py"]
    contention.assert_no_loss(counts, keys, 100)


@pytest.mark.parametrize("strategy", ["oslock", "lockfile"])
def test_8x500_split_across_languages(tmp_path, strategy):
    workers = [contention.c_worker()] * 3 + [contention.python_worker()] * 3 + [contention.node_worker()] * 2
    counts, keys = contention.run(tmp_path, workers, 500, strategy)
    contention.assert_no_loss(counts, keys, 500)


def test_os_lock_with_pure_python_fallback_in_the_mix(tmp_path):
    # A process without the native library still takes the same flock.
    workers = mix(1) + [contention.python_worker("python")] * 2
    counts, keys = contention.run(tmp_path, workers, 100, "oslock")
    contention.assert_no_loss(counts, keys, 100)


def test_unlocked_mix_loses(tmp_path):
    counts, keys = contention.run(tmp_path, mix(2), 100, "none", hold_us=2000)
    lost, lost_keys = contention.loss(counts, keys, 100)
    assert lost > 0, "the unlocked control lost nothing: the harness has no teeth (%s)" % counts
