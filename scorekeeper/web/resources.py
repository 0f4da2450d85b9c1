"""Where templates/ and static/ are: inside the installed package (the wheel
ships them there), else beside it, where they live in the repository."""

from pathlib import Path


def resource_folder(name):
    """templates/ or static/: inside the installed package (the wheel ships them
    there), else beside it, where they live in the repository."""
    package = Path(__file__).resolve().parents[1]  # scorekeeper/, this being web/resources.py
    inside = package / name
    return str(inside if inside.is_dir() else package.parent / name)
