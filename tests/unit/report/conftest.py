"""Report tests: matplotlib's config and font cache go to a temporary folder, not the home folder.

Set at import, before any test module imports matplotlib (it reads MPLCONFIGDIR once)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

if "MPLCONFIGDIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="tripwright-mpl-")
    os.environ["MPLCONFIGDIR"] = _folder
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)
