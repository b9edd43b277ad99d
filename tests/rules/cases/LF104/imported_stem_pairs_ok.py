# Not one document: different stems, helpers from different modules, a
# helper that names no document word, a lock held, a fixed refresh.
from lib.state import load_task_state, save_persistent_state, load_session_state, save_session_state
from lib.other import save_task_state
from lib.misc import load_things, save_things
from lib.locks import state_lock


def cross_stems(k):
    state = load_task_state()
    state[k] = 1
    save_persistent_state(state)


def cross_modules(k):
    state = load_task_state()
    state[k] = 1
    save_task_state(state)


def no_document_word(k):
    things = load_things()
    things[k] = 1
    save_things(things)


def locked(k):
    with state_lock():
        state = load_session_state()
        state[k] = state.get(k, 0) + 1
        save_session_state(state)


def refresh(now):
    state = load_session_state()
    state["refreshed_at"] = now
    save_session_state(state)


from lib.setup import load_config, save_config


def configure(mode):
    cfg = load_config()
    cfg["mode"] = mode
    save_config(cfg)
