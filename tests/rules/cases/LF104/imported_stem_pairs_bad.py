# Helpers of another module that name their document themselves: the stem
# of the load/save pair is the document.
from lib.state import load_task_state, save_task_state, load_persistent_state, save_persistent_state


def record_task(task_id, entry):
    state = load_task_state()
    state["tasks"][task_id] = entry
    save_task_state(state)


def queue_outcome(outcome):
    pstate = load_persistent_state()
    pstate.setdefault("queue", []).append(outcome)
    save_persistent_state(pstate)
