"""A CJK font for the plots: Noto Sans SC from the `pylopdf-fonts-zh-cn` package (SIL OFL 1.1).

Plots carry Chinese task names, check names and user names; matplotlib's bundled DejaVu Sans has
no CJK glyphs. The font file ships inside the pip package, so no system font is needed; it is
registered with matplotlib once per process and put first in the sans-serif list, with DejaVu
Sans after it for the glyphs it lacks.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pylopdf_fonts_zh_cn
from matplotlib import font_manager


@cache
def cjk_family() -> str:
    """Register the bundled Noto Sans SC with matplotlib and return its family name."""
    path = str(pylopdf_fonts_zh_cn.sans_path())
    font_manager.fontManager.addfont(path)
    return str(font_manager.FontProperties(fname=path).get_name())


def style() -> dict[Any, Any]:
    """The rc settings of every report plot: CJK font first, fixed DPI, plain ASCII minus sign."""
    return {
        "font.family": "sans-serif",
        "font.sans-serif": [cjk_family(), "DejaVu Sans"],
        "axes.unicode_minus": False,
        "figure.dpi": 100,
        "savefig.dpi": 100,
    }
