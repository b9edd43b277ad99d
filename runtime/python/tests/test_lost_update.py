"""Real-process lost-update runs with Python workers: N processes x M locked
read-modify-write increments of one JSON counter, one key per process."""
import pytest

import contention

SIZES = [(1, 50), (3, 50), (6, 40), (8, 500)]
MODES = [("native", "oslock"), ("native-c", "oslock"), ("native", "lockfile"), ("python", "oslock")]


def _need_native(backend):
    if backend.startswith("native") and not contention.LIBRARY:
        pytest.skip("LOCKRT_TEST_LIBRARY is not set (run through ctest to test the native backend)")


@pytest.mark.parametrize("procs,iters", SIZES, ids=["%dx%d" % s for s in SIZES])
@pytest.mark.parametrize("backend,strategy", MODES, ids=["%s-%s" % m for m in MODES])
def test_no_lost_update(tmp_path, backend, strategy, procs, iters):
    _need_native(backend)
    counts, keys = contention.run(tmp_path, [contention.python_worker(backend)] * procs, iters, strategy)
    contention.assert_no_loss(counts, keys, iters)


@pytest.mark.parametrize("backend,strategy", MODES, ids=["%s-%s" % m for m in MODES])
def test_no_lost_update_with_a_window_inside_the_critical_section(tmp_path, backend, strategy):
    _need_native(backend)
    counts, keys = contention.run(tmp_path, [contention.python_worker(backend)] * 6, 40, strategy, hold_us=500)
    contention.assert_no_loss(counts, keys, 40)


@pytest.mark.parametrize("procs,iters", [(3, 50), (6, 40)], ids=["3x50", "6x40"])
def test_unlocked_control_loses(tmp_path, procs, iters):
    # The same workers without the lock (and the 2 ms read-modify-write window
    # the C harness's control uses) must lose, or the runs above prove nothing.
    counts, keys = contention.run(tmp_path, [contention.python_worker("python")] * procs, iters, "none",
                                  hold_us=2000)
    lost, lost_keys = contention.loss(counts, keys, iters)
    assert lost > 0, "the unlocked control lost nothing: the harness has no teeth (%s)" % counts


def test_native_and_pure_python_workers_share_one_lock(tmp_path):
    _need_native("native")
    workers = [contention.python_worker("native"), contention.python_worker("native-c"),
               contention.python_worker("python")] * 2
    counts, keys = contention.run(tmp_path, workers, 100, "oslock")
    contention.assert_no_loss(counts, keys, 100)
