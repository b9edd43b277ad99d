"""LF104's gate: no json anywhere, only an imported helper pair whose stem
names state (load_task_state / save_task_state)."""
from lib.tasks import load_task_state, save_task_state


def mark_done(task_id):
    state = load_task_state()
    state["done"].append(task_id)
    save_task_state(state)
