"""A hook merges one namespace into the session's state document through its
package's JSON helpers, whose names say how they read and write (`safe_`,
`atomic_`) before what: the read-modify-write runs with no lock, so two hooks
of one session lose each other's namespace.
"""
import time

from .io import atomic_write_json, safe_load_json


def put_namespace(state_file, namespace, data):
    state = safe_load_json(state_file, {"namespaces": {}})
    state["namespaces"][namespace] = data
    state["updated"] = time.time()
    return atomic_write_json(state_file, state)
