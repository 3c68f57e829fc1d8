"""Writing results so that a reader never sees half of them.

This module owns the two write patterns of ternsim: a result *folder* (a run) is filled under a
temporary name beside its destination and renamed into place; a set of result *files* (a sweep)
is written to temporary names first and each renamed over its destination only once all of
them were written. A failure at any point removes the temporaries and leaves what was there
before untouched. It knows nothing of what the files contain.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Union

__all__ = ["replace_folder", "replace_files"]

PathLike = Union[str, "os.PathLike[str]"]


def _sibling(path: Path, tag: str) -> Path:
    # os.urandom, as secrets.token_hex uses, without importing secrets (hashlib, hmac): a run
    # printed on the terminal imports this module and writes nothing.
    return path.with_name(f".{path.name}.{tag}-{os.urandom(4).hex()}")


def replace_folder(folder: PathLike, fill: Callable[[Path], None], *, marker: str) -> Path:
    """Creates ``folder`` by calling ``fill(tmp)`` on an empty sibling folder, then renaming it.

    An existing ``folder`` is replaced only if it is empty or holds ``marker`` (a file every
    result folder has), so a mistaken ``--out .`` cannot delete unrelated files. If ``fill``
    raises, the old folder (if any) is left as it was and no temporary folder remains.
    """
    import shutil  # only here: it imports the compression modules

    folder = Path(folder).resolve()
    if folder.exists():
        if not folder.is_dir():
            raise FileExistsError(f"{folder} exists and is not a folder")
        if any(folder.iterdir()) and not (folder / marker).exists():
            raise FileExistsError(
                f"{folder} exists and is not a ternsim result folder (no {marker}); "
                "refusing to replace it"
            )
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = _sibling(folder, "tmp")
    tmp.mkdir()
    try:
        fill(tmp)
        if folder.exists():
            old = _sibling(folder, "old")
            os.rename(folder, old)
            try:
                os.rename(tmp, folder)
            except BaseException:
                os.rename(old, folder)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


def replace_files(writers: dict[Path, Callable[[Path], None]]) -> list[Path]:
    """Writes each destination by calling its writer on a temporary sibling path, then, once
    all were written, moves each over its destination with :func:`os.replace`.

    If any writer raises, every temporary is removed and no destination is touched.
    """
    done: list[tuple[Path, Path]] = []
    try:
        for dest, write in writers.items():
            dest = Path(dest)
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = _sibling(dest, "tmp")
            done.append((tmp, dest))
            write(tmp)
    except BaseException:
        for tmp, _ in done:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, dest in done:
        os.replace(tmp, dest)
    return [dest for _, dest in done]
