"""A rename between two literal names that are not a temp and its target
(the previous log rotated aside): no shared temp of a write."""
import os


def rotate(log_dir):
    os.replace(os.path.join(log_dir, "current.log"), os.path.join(log_dir, "previous.log"))
